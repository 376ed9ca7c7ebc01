package logs

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// A dialect teaches the reader a project's words. The built-in dialects
// (dialects/builtin.yaml) and a dialect file (--dialect FILE) are the same
// YAML, loaded by the same code and read by the same code (Dialect.read):
// a file may say anything a built-in does. The common case is short:
//
//	dialects:
//	- name: widget-operator          # what the read note calls it
//	  controller: widget             # its controller's name (else the line's controller or logger field)
//	  limiter: exponential 1s..5m    # its per-item limiter (else client-go's default is assumed)
//	  lines:
//	  - regexp: '^sync of widget (?P<key>\S+) failed, retry #(?P<count>\d+): (?P<error>.*)$'
//	    means: failure
//	  - text: widget synced          # the whole message; prefix: for its start
//	    means: success
//
// Each line is matched against the message as the line's format reads it
// (klog's text after its header, JSON's msg, logfmt's msg=), the dialects
// in order — the built-ins, then the files — and the first line that
// matches decides; behind them all, the generic reader. A regexp's named
// groups say where the key (namespace/name; or its parts in namespace and
// name groups, for a key written name first), the error (unquoted when the
// group is one Go-quoted string), the retry count and the next retry
// ("retry": a Go duration) are; without a key group the
// key is the line's namespace and name, request or object fields, or the
// field key-field names (key-field: key, for a key= field). means is
// failure, success, requeue-after (its delay in a retry group, after
// duration-after, or in requeue-after-field), dropped (the controller gave
// up on the key), terminal, start, requeue (Requeue: true), queue (the
// priority queue's items) or forget (the instrument's forget line). The
// other fields are those builtin.yaml's header says.
type Dialect struct {
	Name string
	// Controller names the controller of every line it reads, whatever
	// the line says; empty: the line's controller field, else From.
	Controller string
	// From says where a line without a controller field names it.
	From ControllerFrom
	// KeyField is the field holding the key when it is none of the usual.
	KeyField string
	// Limiters are its per-item limiter's rules (limiter:); none for the
	// queue's default.
	Limiters []LimiterRule
	// ClientGo says it runs a bare client-go work queue (queue: client-go,
	// or no queue and no limiter said); LimiterShared that its rules hold
	// for a line of any dialect whose controller they name;
	// SuccessesLogged that its successes are written wherever its failures
	// are.
	ClientGo, LimiterShared, SuccessesLogged bool
	Advice                                   Advice
	Lines                                    []DialectLine
	// Source is FILE:LINE of its name, for the diagnostics.
	Source string

	// What the loader derives from the lines (compile): the markers of
	// its lines and of its failures (markersOf), and its name in each
	// format, made once so that naming a record does not allocate.
	markers, failMarkers []string
	names                [len(formatNames)]string
}

// DialectLine is one line of a Dialect.
type DialectLine struct {
	// Text is the whole message, or its start when Prefix; Regexp instead
	// of both.
	Text   string
	Prefix bool
	Regexp *regexp.Regexp
	Means  What
	// Dropped says a failure gave the key up (means: dropped); Terminal
	// that it is not retried (means: terminal).
	Dropped, Terminal bool
	// Controller names the controller of this line when it has no
	// controller field, before Dialect.From (kube-controller-manager's
	// deployment controller, whose line names no file of its own).
	Controller string
	// The key and error in the message: TEXT KEY KeySep ERROR, ErrorSuffix
	// trimmed off; a duration that ends the message after DurationAfter;
	// the delay as the time the "requeue-after" field says; the key in
	// the namespace field; the key in the one field of a name the reader
	// has no word for whose value is a namespace/name (PVC="ns/x"); the
	// key the attempt's names-key line named (KeyFromAttempt: the line
	// names none; with KeySep, what is before it is the line's own name
	// for the object, attemptkey.go).
	KeySep, ErrorSuffix, DurationAfter                            string
	RequeueAfterField, KeyIsNamespace, KeyInField, KeyFromAttempt bool
	// KnownKeys (known-keys: true, a success or requeue-after line only):
	// the line settles a key the log showed failing and makes no key of
	// its own — a project that logs every reconcile's success at its
	// default level would list every object it reconciled, and a log
	// that never failed would read as a list of keys.
	KnownKeys bool
	// Finished (means: finished) says the line is a sync's deferred end,
	// logged whatever the outcome and before the failure line of the same
	// attempt: a success unless that line follows (finished.go); it names
	// its attempt's key as a names-key line does.
	Finished bool
	// shown is the line as `kubectl backoff dialects` says it (showLine),
	// made once: a record read by a prefix or a regexp carries it.
	shown string
}

// DialectError is a dialect file refused: its file, line and field. Line
// is 0 when the YAML parser's own message says where (Err).
type DialectError struct {
	File  string
	Line  int
	Field string
	Err   string
}

func (e *DialectError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Err)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Err)
}

// parseDialects reads a dialect file: the built-ins' or a user's.
func parseDialects(file string, raw []byte) ([]Dialect, error) {
	bad := func(n *yaml.Node, field, format string, args ...any) error {
		return &DialectError{File: file, Line: n.Line, Field: field, Err: fmt.Sprintf(format, args...)}
	}
	if len(raw) > maxDialectBytes {
		return nil, &DialectError{File: file, Line: 1, Field: "(file)", Err: fmt.Sprintf("over %d bytes", maxDialectBytes)}
	}
	var doc yaml.Node
	if err := decodeDialectYAML(file, raw, &doc); err != nil {
		if de, ok := err.(*DialectError); ok {
			return nil, de
		}
		// The parser's message says its line ("yaml: line 3: …"); it gives
		// no line apart from its text, and the text is not taken apart.
		return nil, &DialectError{File: file, Field: "(yaml)", Err: err.Error()}
	}
	if len(doc.Content) == 0 {
		return nil, &DialectError{File: file, Line: 1, Field: "dialects", Err: "the file is empty: give a list of dialects"}
	}
	top := doc.Content[0]
	list, err := member(top, "dialects", bad)
	if err != nil {
		return nil, err
	}
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		return nil, bad(top, "dialects", "want a list of dialects")
	}
	var out []Dialect
	for _, n := range list.Content {
		d, err := parseDialect(file, n, bad)
		if err != nil {
			return nil, err
		}
		d.compile()
		out = append(out, d)
	}
	return out, nil
}

type badFunc func(n *yaml.Node, field, format string, args ...any) error

// member is the value of key in mapping n; nil when it has none.
func member(n *yaml.Node, key string, bad badFunc) (*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, bad(n, key, "want a mapping")
	}
	var v *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Value == key {
			if v != nil {
				return nil, twice(k, key, v, bad)
			}
			v = n.Content[i+1]
		}
	}
	return v, nil
}

// members are a mapping's members by key, refusing keys not in allowed.
func members(n *yaml.Node, where string, allowed []string, bad badFunc) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, bad(n, where, "want a mapping")
	}
	m := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !contains(allowed, k.Value) {
			return nil, bad(k, where+"."+k.Value, "unknown field; the fields are %s", strings.Join(allowed, ", "))
		}
		if v, ok := m[k.Value]; ok {
			return nil, twice(k, k.Value, v, bad)
		}
		m[k.Value] = n.Content[i+1]
	}
	return m, nil
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// dialectFields and lineFields are the fields of a dialect and of a line.
var (
	dialectFields = []string{"name", "controller", "limiter", "lines",
		"controller-from", "key-field", "queue", "successes-logged", "limiter-shared", "advice"}
	lineFields = []string{"text", "prefix", "regexp", "means",
		"controller", "key-sep", "error-suffix", "duration-after", "requeue-after-field", "key", "known-keys"}
)

func parseDialect(file string, n *yaml.Node, bad badFunc) (Dialect, error) {
	m, err := members(n, "dialects[]", dialectFields, bad)
	if err != nil {
		return Dialect{}, err
	}
	if err := wantStrings(m, bad, "name", "controller"); err != nil {
		return Dialect{}, err
	}
	d := Dialect{Source: fmt.Sprintf("%s:%d", file, n.Line)}
	if v := m["name"]; v == nil || v.Value == "" {
		return Dialect{}, bad(n, "name", "a dialect needs a name")
	} else {
		d.Name = v.Value
	}
	if v := m["controller"]; v != nil {
		d.Controller = v.Value
	}
	if v := m["limiter"]; v != nil {
		if err := parseLimiterRules(v, &d, bad); err != nil {
			return Dialect{}, err
		}
	}
	if err := parseDialectExt(m, &d, bad); err != nil {
		return Dialect{}, err
	}
	lines := m["lines"]
	if lines == nil || lines.Kind != yaml.SequenceNode || len(lines.Content) == 0 {
		return Dialect{}, bad(n, "lines", "want a list of the lines it reads")
	}
	for _, ln := range lines.Content {
		l, err := parseDialectLine(ln, bad)
		if err != nil {
			return Dialect{}, err
		}
		d.Lines = append(d.Lines, l)
	}
	return d, nil
}

// meanings are what a line's means: may say.
var meanings = map[string]What{"failure": ErrorLine, "dropped": ErrorLine, "terminal": ErrorLine, "success": SuccessLine,
	"finished": SuccessLine, "requeue-after": RequeueAfterLine, "start": StartLine, "requeue": RequeueLine, "queue": QueueLine, "forget": ForgetLine,
	"warning": WarningLine, "names-key": KeyLine, "loop": LoopLine}

const meaningsList = "failure, success, finished, requeue-after, dropped, terminal, warning, names-key, start, requeue, queue, forget or loop"

func parseDialectLine(n *yaml.Node, bad badFunc) (DialectLine, error) {
	m, err := members(n, "lines[]", lineFields, bad)
	if err != nil {
		return DialectLine{}, err
	}
	if err := wantStrings(m, bad, "text", "prefix", "regexp", "means", "controller"); err != nil {
		return DialectLine{}, err
	}
	var l DialectLine
	switch text, prefix, re := m["text"], m["prefix"], m["regexp"]; {
	case re != nil && (text != nil || prefix != nil):
		return l, bad(re, "regexp", "give text, prefix or regexp, one of them")
	case re != nil:
		if len(re.Value) > 1024 {
			return l, bad(re, "regexp", "over 1024 bytes")
		}
		// Bounded as the endpoint bounds a filter: every line is matched.
		rx, err := query.CompileRegexp(re.Value)
		if err != nil {
			return l, bad(re, "regexp", "%v", err)
		}
		for _, g := range rx.SubexpNames()[1:] {
			if g != "" && !contains([]string{"key", "namespace", "name", "error", "count", "retry"}, g) {
				return l, bad(re, "regexp", "group %q: the groups are key (or namespace and name), error, count and retry", g)
			}
		}
		l.Regexp = rx
	case text != nil && prefix != nil:
		return l, bad(prefix, "prefix", "give text or prefix, not both")
	case text != nil && text.Value != "":
		l.Text = text.Value
	case prefix != nil && prefix.Value != "":
		l.Text, l.Prefix = prefix.Value, true
	default:
		return l, bad(n, "text", "a line needs its text, prefix or regexp")
	}
	means := m["means"]
	if means == nil {
		return l, bad(n, "means", "say what the line means: %s", meaningsList)
	}
	w, ok := meanings[means.Value]
	if !ok {
		return l, bad(means, "means", "%q: want %s", means.Value, meaningsList)
	}
	l.Means, l.Dropped, l.Terminal = w, means.Value == "dropped", means.Value == "terminal"
	// A sync's end, logged whatever its outcome: it settles only a key the
	// log showed failing (finished.go).
	l.Finished = means.Value == "finished"
	l.KnownKeys = l.Finished
	if v := m["controller"]; v != nil {
		l.Controller = v.Value
	}
	if err := parseLineExt(m, &l, bad); err != nil {
		return l, err
	}
	if l.Means == RequeueAfterLine && l.DurationAfter == "" && !l.RequeueAfterField && (l.Regexp == nil || l.Regexp.SubexpIndex("retry") < 0) {
		return l, bad(means, "means", "requeue-after needs its delay: a regexp with a retry group, duration-after or requeue-after-field")
	}
	l.shown = showLine(&l)
	return l, nil
}

// parseLimiterText reads "exponential BASE..MAX" (client-go's per-item
// exponential: BASE·2^n, capped at MAX), or "fixed D": every retry after
// D, whatever the failures (kube-controller-manager's HPA controller's
// FixedItemIntervalRateLimiter, its resync period), which is the
// exponential D..D.
func parseLimiterText(s string) (Limiter, error) {
	if d, ok := strings.CutPrefix(strings.TrimSpace(s), "fixed "); ok {
		dur, err := time.ParseDuration(strings.TrimSpace(d))
		if err != nil || dur <= 0 {
			return Limiter{}, fmt.Errorf("%q: want fixed D, D a positive duration, as fixed 15s", s)
		}
		return Limiter{BaseDelay: dur, MaxDelay: dur}, nil
	}
	spec, ok := strings.CutPrefix(strings.TrimSpace(s), "exponential ")
	lo, hi, ok2 := strings.Cut(strings.TrimSpace(spec), "..")
	if !ok || !ok2 {
		return Limiter{}, fmt.Errorf("%q: want exponential BASE..MAX, as exponential 5ms..16m40s, or fixed D", s)
	}
	base, err1 := time.ParseDuration(lo)
	top, err2 := time.ParseDuration(hi)
	if err1 != nil || err2 != nil || base <= 0 || top < base {
		return Limiter{}, fmt.Errorf("%q: want two durations, the first positive, the second not below it", s)
	}
	return Limiter{BaseDelay: base, MaxDelay: top}, nil
}

// parseText reads a line of no format the reader knows, for a dialect
// file's lines: TIME LEVEL MESSAGE, each of the first two there or not.
func parseText(line []byte, f *fields) bool {
	rest := strings.TrimSpace(string(line))
	if w, after, ok := strings.Cut(rest, " "); ok && looksLikeTime([]byte(w)) {
		f.at, rest = parseTime(w), strings.TrimSpace(after)
	}
	if w, after, ok := strings.Cut(rest, " "); ok && isLevel([]byte(w)) {
		f.severe, rest = severeLevel([]byte(w)), strings.TrimSpace(after)
	}
	f.msg = rest
	return rest != ""
}
