package logs

// interner keeps one string for each value of the fields that recur line
// after line — the message, the controller, its group and kind, the
// namespace, the logger — so that a log of a million lines allocates them
// once, not once a line: most of a read's allocations, and so of its
// garbage collection. One per reading goroutine (not safe for concurrent
// use); it holds at most maxInterned values, after which it interns no
// more (memory bounded by what recurs, not by lines).
type interner struct {
	m map[string]string
}

// maxInterned and maxInternBytes bound an interner.
const (
	maxInterned    = 4096
	maxInternBytes = 256
)

func newInterner() *interner { return &interner{m: map[string]string{}} }

// jsonString is the value raw of field key as a string (jsonString),
// interned when key is one whose values recur.
func (in *interner) jsonString(key, raw []byte) string {
	if in == nil || !recurs(key) || len(raw) < 2 || len(raw) > maxInternBytes || raw[0] != '"' {
		return jsonString(raw)
	}
	body := raw[1 : len(raw)-1]
	if s, ok := in.m[string(body)]; ok { // a lookup by bytes: no copy
		return s
	}
	s := jsonString(raw)
	if len(in.m) < maxInterned {
		in.m[s] = s
	}
	return s
}

// recurs says the values of field key recur line after line.
func recurs(key []byte) bool {
	switch string(key) {
	case "msg", "message", "logger", "controller", "controllerGroup", "controllerKind", "reconciler group", "reconciler kind", "namespace", "name", "error", "err":
		return true
	}
	return false
}
