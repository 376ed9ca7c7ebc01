package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Kind is File.Kind: it says what the file is to whoever opens it.
const Kind = "BackoffSnapshot"

// FormatVersion is the version of the file this package writes, and the
// newest it reads.
const FormatVersion = 1

// DefaultMaxDetails is how many keys in backoff or failed a snapshot keeps
// the history of, unless told otherwise.
const DefaultMaxDetails = 200

// MaxDetails bounds TakeOptions.MaxDetails: each detail is one request.
const MaxDetails = 5000

// File is a snapshot: what every endpoint of a target said at one moment,
// in one self-describing JSON document.
type File struct {
	// Kind is always Kind ("BackoffSnapshot").
	Kind string `json:"kind"`
	// FormatVersion is the version of this layout (FormatVersion).
	FormatVersion int `json:"formatVersion"`
	// WireAPI is the endpoint API version the records are in (api.APIVersion):
	// every key and controller is exactly what the endpoint served.
	WireAPI string `json:"wireAPI"`
	// TakenAt is the server's time when the snapshot was taken (the latest
	// of the endpoints' clocks); every countdown in it counts from there.
	TakenAt time.Time `json:"takenAt"`
	// Source names what was attached (a TARGET, an address); Tool the
	// kubectl-backoff that wrote the file.
	Source string `json:"source,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// MaxDetails is the bound on Endpoint.Details over the whole file.
	MaxDetails int `json:"maxDetails"`
	// Endpoints are the replicas attached, each as it answered.
	Endpoints []Endpoint `json:"endpoints"`
}

// Endpoint is one replica's part of a snapshot.
type Endpoint struct {
	// Name is the pod (namespace/name) or the address.
	Name string `json:"name"`
	// ServerTime is the replica's clock when its controllers were read.
	ServerTime time.Time `json:"serverTime"`
	// Error is why the replica could not be read; it then has nothing else.
	Error       string           `json:"error,omitempty"`
	Controllers []api.Controller `json:"controllers"`
	// Keys is every key the replica tracks, as v1/keys returns it (no
	// history); a key with a detail is listed as its detail says, since
	// the detail is read after the list and the key may have changed.
	Keys []api.Key `json:"keys"`
	// Details are the keys in backoff or failed as v1/key returns them,
	// history included: most failures first, up to the file's MaxDetails.
	// Each is read after the list, so its state may be later than TakenAt.
	Details []api.Key `json:"details,omitempty"`
	// DetailsOmitted counts the keys in backoff or failed left without
	// their detail by MaxDetails.
	DetailsOmitted int `json:"detailsOmitted,omitempty"`
	// ErrorGroups are the replica's v1/errors over every key, as it
	// answered: a record for the reader of the file. Served back, a
	// snapshot groups its keys' messages with the query engine's
	// Fingerprint, the function the server grouped by.
	ErrorGroups []api.ErrorGroup `json:"errorGroups,omitempty"`
}

// Write writes f as indented JSON.
func Write(w io.Writer, f *File) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// Read reads a snapshot, refusing what is not one, or is newer than this
// package reads.
func Read(r io.Reader) (*File, error) {
	var f File
	cr := &countingReader{r: r}
	if err := json.NewDecoder(cr).Decode(&f); err != nil {
		switch {
		case errors.Is(err, io.EOF):
			return nil, errors.New("empty: no snapshot in it (write one with kubectl backoff snapshot)")
		case errors.Is(err, io.ErrUnexpectedEOF):
			// The JSON stops mid-way: a snapshot cut short (a copy or a
			// write that did not finish), not another kind of file.
			return nil, fmt.Errorf("truncated: it ends after %d bytes, in the middle of its JSON (a snapshot cut short? take it again with kubectl backoff snapshot)", cr.n)
		}
		return nil, fmt.Errorf("not a snapshot (write one with kubectl backoff snapshot): %w", err)
	}
	switch {
	case f.Kind != Kind:
		return nil, fmt.Errorf("not a snapshot: kind is %q, want %q (write one with kubectl backoff snapshot)", f.Kind, Kind)
	case f.FormatVersion < 1 || f.FormatVersion > FormatVersion:
		return nil, fmt.Errorf("snapshot format version %d: this kubectl-backoff reads 1 to %d; use a newer one", f.FormatVersion, FormatVersion)
	case f.WireAPI != api.APIVersion:
		return nil, fmt.Errorf("snapshot of wire API %q: this kubectl-backoff reads %q", f.WireAPI, api.APIVersion)
	}
	return &f, nil
}

// key identifies a key across replicas and snapshots: shards hold disjoint
// keys, and a pod's name changes with a restart.
type key struct{ controller, key string }

// Keys returns every key of the file, with the detail (history) where the
// file has it.
func (f *File) Keys() map[key]api.Key {
	out := map[key]api.Key{}
	for _, e := range f.Endpoints {
		for _, k := range e.Keys {
			out[key{k.Controller, k.Key}] = k
		}
		for _, k := range e.Details {
			out[key{k.Controller, k.Key}] = k
		}
	}
	return out
}

// countingReader counts the bytes read through it, for a truncated
// snapshot's message.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
