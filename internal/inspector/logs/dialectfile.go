package logs

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// A dialect file (--dialect FILE) teaches the reader an in-house
// controller's words. It is YAML:
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
// (klog's text after its header, JSON's msg, logfmt's msg=), after every
// built-in dialect and before the generic reader. A regexp's named groups
// say where the key (namespace/name), the error, the retry count and the
// next retry ("retry": a Go duration) are; without a key group the key is
// the line's key, request, object or namespace and name fields. means is
// failure, success, requeue-after (with a retry group: the delay),
// dropped (the controller gave up on the key) or terminal.
type Dialect struct {
	Name, Controller string
	// Limiter is the controller's per-item limiter; zero for client-go's
	// default.
	Limiter Limiter
	Lines   []DialectLine
	// Source is FILE:LINE of its name, for the diagnostics.
	Source string

	// The built-in dialects' fields (dialectext.go): where a line without
	// a controller field names it, the field of its key, whether it runs a
	// bare client-go queue, whether its successes are logged with its
	// failures, its limiter's rules (shared with every dialect's lines
	// when LimiterShared), the markers of its lines and of its failures,
	// and its advice.
	From                      ControllerFrom
	KeyField                  string
	ClientGo, SuccessesLogged bool
	Limiters                  []LimiterRule
	LimiterShared             bool
	Markers, FailMarkers      []string
	Advice                    Advice
}

// DialectLine is one line of a Dialect.
type DialectLine struct {
	Text   string
	Prefix bool
	Regexp *regexp.Regexp
	Means  What
	// Dropped says a failure gave the key up (means: dropped).
	Dropped, Terminal bool

	// The built-in dialects' fields (dialectext.go): the key and error in
	// the message (TEXT KEY KeySep ERROR ErrorSuffix), a duration that
	// ends it after DurationAfter, the delay in the "requeue-after" field,
	// the key in the namespace field.
	KeySep, ErrorSuffix, DurationAfter string
	RequeueAfterField, KeyIsNamespace  bool
}

// DialectError is a dialect file refused: its file, line and field.
type DialectError struct {
	File  string
	Line  int
	Field string
	Err   string
}

func (e *DialectError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Err)
}

// parseDialects reads a dialect file; builtin allows the built-in
// dialects' fields (dialectext.go).
func parseDialects(file string, raw []byte, builtin bool) ([]Dialect, error) {
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
		line := 1
		if _, rest, ok := strings.Cut(err.Error(), "line "); ok {
			if n, err := strconv.Atoi(strings.SplitN(rest, ":", 2)[0]); err == nil {
				line = n
			}
		}
		return nil, &DialectError{File: file, Line: line, Field: "(yaml)", Err: err.Error()}
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
		d, err := parseDialect(file, n, builtin, bad)
		if err != nil {
			return nil, err
		}
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

func parseDialect(file string, n *yaml.Node, builtin bool, bad badFunc) (Dialect, error) {
	m, err := members(n, "dialects[]", append([]string{"name", "controller", "limiter", "lines"}, builtinFields...), bad)
	if err != nil {
		return Dialect{}, err
	}
	if err := refuseBuiltin(n, m, builtin, builtinFields, bad); err != nil {
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
		if err := parseLimiterRules(v, &d, builtin, bad); err != nil {
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
		l, err := parseDialectLine(ln, builtin, bad)
		if err != nil {
			return Dialect{}, err
		}
		d.Lines = append(d.Lines, l)
	}
	return d, nil
}

func parseDialectLine(n *yaml.Node, builtin bool, bad badFunc) (DialectLine, error) {
	m, err := members(n, "lines[]", append([]string{"text", "prefix", "regexp", "means"}, builtinLineFields...), bad)
	if err != nil {
		return DialectLine{}, err
	}
	if err := refuseBuiltin(n, m, builtin, builtinLineFields, bad); err != nil {
		return DialectLine{}, err
	}
	if err := wantStrings(m, bad, "text", "prefix", "regexp", "means"); err != nil {
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
			if g != "" && !contains([]string{"key", "error", "count", "retry"}, g) {
				return l, bad(re, "regexp", "group %q: the groups are key, error, count and retry", g)
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
		return l, bad(n, "means", "say what the line means: failure, success, requeue-after, dropped or terminal")
	}
	switch means.Value {
	case "failure":
		l.Means = ErrorLine
	case "dropped":
		l.Means, l.Dropped = ErrorLine, true
	case "terminal":
		l.Means, l.Terminal = ErrorLine, true
	case "success":
		l.Means = SuccessLine
	case "requeue-after":
		l.Means = RequeueAfterLine
		if !builtin && (l.Regexp == nil || l.Regexp.SubexpIndex("retry") < 0) {
			return l, bad(means, "means", "requeue-after needs a regexp with a retry group (its delay)")
		}
	default:
		if w, ok := builtinMeanings[means.Value]; ok && builtin {
			l.Means = w
			break
		}
		return l, bad(means, "means", "%q: want failure, success, requeue-after, dropped or terminal", means.Value)
	}
	return l, parseLineExt(m, &l, bad)
}

// refuseBuiltin refuses, in a dialect file, the fields only the built-in
// dialects use.
func refuseBuiltin(n *yaml.Node, m map[string]*yaml.Node, builtin bool, fields []string, bad badFunc) error {
	if builtin {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; contains(fields, k.Value) {
			return bad(k, k.Value, "%s", errNotBuiltin(k.Value))
		}
	}
	return nil
}

// parseLimiterText reads "exponential BASE..MAX" (client-go's per-item
// exponential: BASE·2^n, capped at MAX).
func parseLimiterText(s string) (Limiter, error) {
	spec, ok := strings.CutPrefix(strings.TrimSpace(s), "exponential ")
	lo, hi, ok2 := strings.Cut(strings.TrimSpace(spec), "..")
	if !ok || !ok2 {
		return Limiter{}, fmt.Errorf("%q: want exponential BASE..MAX, as exponential 5ms..16m40s", s)
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
