package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
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
	// Source is the replica's v1/controllers source: what a log read as a
	// replica understood and shows; nil for an instrumented endpoint.
	Source *api.ListSource `json:"source,omitempty"`
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

// Write writes f as indented JSON, by the endpoint's encoder
// (query.NewEncoder): an error text such as `x509: "<nil>"` or `a && b`
// reads in the file as the endpoint served it, not as \u003cnil\u003e.
func Write(w io.Writer, f *File) error {
	enc := query.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// DefaultMaxBytes bounds the size of a snapshot Read reads: 256 MiB, some
// 300,000 keys with a detail each. A file past it is refused before it is
// held in memory (a header followed by gigabytes of whitespace, sixty
// replicas' worth of one snapshot repeated).
const DefaultMaxBytes int64 = 256 << 20

// TooLargeError is a snapshot larger than the bound it was read with.
type TooLargeError struct {
	// Limit is the bound, in bytes.
	Limit int64
}

// Error implements error.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("larger than %s, the bound a snapshot is read with", SizeText(e.Limit))
}

// SizeText is n bytes in words: "256 MiB", "1.5 GiB", "4.2 KiB", "900 bytes".
func SizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) != 0:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read reads a snapshot of at most DefaultMaxBytes: ReadLimit.
func Read(r io.Reader) (*File, error) { return ReadLimit(r, DefaultMaxBytes) }

// ReadLimit reads a snapshot of at most maxBytes, refusing what is not
// one, is newer than this package reads, is larger (a *TooLargeError), has
// anything but white space after it (two snapshots concatenated, a
// trailing fragment), or does not say when it was taken.
func ReadLimit(r io.Reader, maxBytes int64) (*File, error) {
	var f File
	cr := &countingReader{r: io.LimitReader(r, maxBytes+1)}
	dec := json.NewDecoder(cr)
	if err := dec.Decode(&f); err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case (errors.As(err, &syntax) || errors.As(err, &typ)) && looksLikeLog(cr.head):
			return nil, ErrLog
		case cr.n > maxBytes:
			// Cut by the bound, not by its writer.
			return nil, &TooLargeError{Limit: maxBytes}
		case errors.Is(err, io.EOF):
			return nil, errors.New("empty: no snapshot in it (write one with kubectl backoff snapshot)")
		case errors.Is(err, io.ErrUnexpectedEOF):
			// The JSON stops mid-way: a snapshot cut short (a copy or a
			// write that did not finish), not another kind of file.
			return nil, fmt.Errorf("truncated: it ends after %d bytes, in the middle of its JSON (a snapshot cut short? take it again with kubectl backoff snapshot)", cr.n)
		}
		return nil, fmt.Errorf("not a snapshot (write one with kubectl backoff snapshot): %w", err)
	}
	if f.Kind != Kind && looksLikeLog(cr.head) {
		return nil, ErrLog
	}
	if f.Kind != Kind {
		// The first document decides: what follows one that is not a
		// snapshot is not "a second document after the snapshot".
		return nil, fmt.Errorf("not a snapshot: kind is %q, want %q (write one with kubectl backoff snapshot)", f.Kind, Kind)
	}
	end := dec.InputOffset()
	tok, err := dec.Token()
	if cr.n > maxBytes { // white space past the bound counts too
		return nil, &TooLargeError{Limit: maxBytes}
	}
	if err != io.EOF {
		switch {
		case tok == json.Delim('{'):
			return nil, fmt.Errorf("a second JSON document follows the snapshot at byte %d: one file holds one snapshot (two written to the same file?)", end)
		}
		return nil, fmt.Errorf("trailing data after the snapshot, which ends at byte %d: a file holds one snapshot and nothing else (a copy that went wrong?)", end)
	}
	switch {
	case f.FormatVersion < 1 || f.FormatVersion > FormatVersion:
		return nil, fmt.Errorf("snapshot format version %d: this kubectl-backoff reads 1 to %d; use a newer one", f.FormatVersion, FormatVersion)
	case f.WireAPI != api.APIVersion:
		return nil, fmt.Errorf("snapshot of wire API %q: this kubectl-backoff reads %q", f.WireAPI, api.APIVersion)
	case f.TakenAt.IsZero():
		// Every countdown counts from takenAt: without it, "taken at
		// 0001-01-01 … 106751d23h before".
		return nil, errors.New("no takenAt: a snapshot says when it was taken, and every countdown in it counts from then (write one with kubectl backoff snapshot)")
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
// snapshot's message, and keeps the first headSpan of them, to tell a log
// given where a snapshot goes.
type countingReader struct {
	r    io.Reader
	n    int64
	head []byte
}

// headSpan is how much of a file's start is kept: a log's first line.
const headSpan = 64 << 10

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if keep := min(n, headSpan-len(c.head)); keep > 0 {
		c.head = append(c.head, p[:keep]...)
	}
	c.n += int64(n)
	return n, err
}
