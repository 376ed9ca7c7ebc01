package query

import (
	"encoding/base64"
	"encoding/binary"
	"hash/fnv"
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A continue token is the position of a page's last row in the sort order,
// as the Kubernetes API's continue is: the next page holds the rows that sort
// after it, found with the same bounded top-k selection as the first page,
// however deep. Rows move as keys change state between pages; a key can then
// be seen twice or not at all, but no page costs more than the first.

// Cursor is a decoded continue token: the last row of the previous page.
type Cursor struct {
	Sort       string
	Rank       api.Rank
	Controller string
	Key        string
	Scope      uint32
}

const cursorVersion = 1

// Encode is the token: version, sort, scope, rank, controller, key, as
// unpadded base64url.
func (c *Cursor) Encode() string {
	b := []byte{cursorVersion, byte(slices.Index(api.Sorts, c.Sort))}
	b = binary.BigEndian.AppendUint32(b, c.Scope)
	for _, r := range c.Rank {
		b = binary.AppendVarint(b, r)
	}
	for _, s := range []string{c.Controller, c.Key} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads tok, which must have been issued for q's scope and sort.
func decodeCursor(tok string, q *Keys) (*Cursor, error) {
	bad := Invalid("continue", "not a continue token of this endpoint; pass the continue value of the previous page as it was")
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) < 6 || b[0] != cursorVersion || int(b[1]) >= len(api.Sorts) {
		return nil, bad
	}
	c := &Cursor{Sort: api.Sorts[b[1]], Scope: binary.BigEndian.Uint32(b[2:6])}
	b = b[6:]
	for i := range c.Rank {
		v, n := binary.Varint(b)
		if n <= 0 {
			return nil, bad
		}
		c.Rank[i], b = v, b[n:]
	}
	for _, s := range []*string{&c.Controller, &c.Key} {
		l, n := binary.Uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return nil, bad
		}
		*s, b = string(b[n:n+int(l)]), b[n+int(l):]
	}
	switch {
	case len(b) != 0:
		return nil, bad
	case c.Sort != q.Sort:
		return nil, Invalid("continue", "the token continues sort=%s, not sort=%s: keep the parameters of the first page", c.Sort, q.Sort)
	case c.Scope != q.Scope:
		return nil, Invalid("continue", "the token continues another controller, q or state: keep the parameters of the first page")
	}
	return c, nil
}

// ScopeOf hashes what a token must continue: the controller, q and states.
func ScopeOf(controller string, f api.Filter) uint32 {
	h := fnv.New32a()
	h.Write([]byte(controller))
	h.Write([]byte{0})
	h.Write([]byte(f.Q))
	if f.Error != "" {
		h.Write([]byte{1})
		h.Write([]byte(f.Error))
	}
	sorted := slices.Clone(f.States)
	slices.Sort(sorted)
	for _, s := range slices.Compact(sorted) {
		h.Write([]byte{0})
		h.Write([]byte(s))
	}
	return h.Sum32()
}
