package logs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// The fields of the dialect format beyond a dialect file's first six: what
// the built-in dialects (dialects/builtin.yaml) need to say of their
// projects. They are read by the same loader; a dialect file may not use
// them yet, because a file's lines are read by Dialect.read, which knows
// only the first six (see builtinFields).

// ControllerFrom says where a line without a "controller" field names its
// controller: the logger's name (Logger), else the caller's file (Caller:
// "controller" for controller.go:321), else Name.
type ControllerFrom struct {
	Logger loggerRule
	Caller bool
	Name   string
}

// LimiterRule is one rule of a project's limiter: when the line's
// controller is one of Controllers or starts with one of Prefixes (either,
// or any controller when both are empty), and its time is before Before
// (when set; a line without a time is taken as recent), the controller's
// per-item limiter is Limiter (zero: the queue's own default).
type LimiterRule struct {
	Controllers, Prefixes []string
	Before                time.Time
	Limiter               Limiter
}

// Advice is what a dialect's project is advised, by the logger that writes
// it ("zap", "klog", "other"): Successes is how its controller is made to
// log the successes the dialect reads ("--zap-log-level=5"); none for a
// logger, and no level is advised.
type Advice struct {
	Successes map[string]string
}

// successesAdvice is how the controller of r is made to log the successes
// its dialect reads, as the dialect advises for the logger that wrote the
// line (api.ListSource.SuccessesHow): zap (its console, or its JSON:
// Record.Sampled), klog, or other (slog, logrus, logfmt). Empty when the
// dialect advises none.
func successesAdvice(r *Record) string {
	name, fm, _ := strings.Cut(r.Dialect, " (")
	a := adviceOf[name]
	switch strings.TrimSuffix(fm, ")") {
	case formatNames[fmtKlog]:
		return a.Successes["klog"]
	case formatNames[fmtConsole]:
		return a.Successes["zap"]
	case formatNames[fmtJSON]:
		if r.Sampled {
			return a.Successes["zap"]
		}
	}
	return a.Successes["other"]
}

// adviceOf is each built-in dialect's advice, by its name.
var adviceOf = func() map[string]Advice {
	m := map[string]Advice{}
	for _, fam := range families {
		if len(fam.advice.Successes) > 0 {
			m[fam.name] = fam.advice
		}
	}
	return m
}()

// limiterFor is the limiter the first rule that holds gives; zero when none
// holds.
func limiterFor(rules []LimiterRule, controller string, at time.Time) Limiter {
	for _, r := range rules {
		if len(r.Controllers)+len(r.Prefixes) > 0 && !contains(r.Controllers, controller) && !hasAnyPrefix(controller, r.Prefixes) {
			continue
		}
		if !r.Before.IsZero() && (at.IsZero() || !at.Before(r.Before)) {
			continue
		}
		return r.Limiter
	}
	return Limiter{}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// builtinFields are the dialect fields only the built-in dialects use;
// builtinLineFields those of a line.
var (
	builtinFields     = []string{"controller-from", "key-field", "queue", "successes-logged", "limiter-shared", "markers", "fail-markers", "advice"}
	builtinLineFields = []string{"key-sep", "error-suffix", "duration-after", "requeue-after-field", "key"}
)

// parseDialectExt reads the built-in fields of dialect n (m, its members)
// into d.
func parseDialectExt(m map[string]*yaml.Node, d *Dialect, bad badFunc) error {
	if v := m["controller-from"]; v != nil {
		cm, err := members(v, "controller-from", []string{"logger", "caller", "name"}, bad)
		if err != nil {
			return err
		}
		if l := cm["logger"]; l != nil {
			switch l.Value {
			case "controller":
				d.From.Logger = loggerController
			case "last":
				d.From.Logger = loggerLast
			default:
				return bad(l, "controller-from.logger", "%q: want controller or last", l.Value)
			}
		}
		if c := cm["caller"]; c != nil {
			b, err := boolValue(c, "controller-from.caller", bad)
			if err != nil {
				return err
			}
			d.From.Caller = b
		}
		if n := cm["name"]; n != nil {
			d.From.Name = n.Value
		}
	}
	if v := m["key-field"]; v != nil {
		if !keyFields[v.Value] {
			return bad(v, "key-field", "%q: the reader keeps only the fields %s", v.Value, strings.Join(keyFieldNames(), ", "))
		}
		d.KeyField = v.Value
	}
	if v := m["queue"]; v != nil {
		if v.Value != "client-go" {
			return bad(v, "queue", "%q: want client-go", v.Value)
		}
		d.ClientGo = true
	}
	for field, p := range map[string]*bool{"successes-logged": &d.SuccessesLogged, "limiter-shared": &d.LimiterShared} {
		if v := m[field]; v != nil {
			b, err := boolValue(v, field, bad)
			if err != nil {
				return err
			}
			*p = b
		}
	}
	var err error
	if d.Markers, err = stringList(m["markers"], "markers", bad); err != nil {
		return err
	}
	if d.FailMarkers, err = stringList(m["fail-markers"], "fail-markers", bad); err != nil {
		return err
	}
	if v := m["advice"]; v != nil {
		am, err := members(v, "advice", []string{"successes"}, bad)
		if err != nil {
			return err
		}
		if s := am["successes"]; s != nil {
			sm, err := members(s, "advice.successes", []string{"zap", "klog", "other"}, bad)
			if err != nil {
				return err
			}
			d.Advice.Successes = map[string]string{}
			for k, n := range sm {
				d.Advice.Successes[k] = n.Value
			}
		}
	}
	return nil
}

// parseLimiterRules reads a limiter: "exponential BASE..MAX" alone, or a
// list of rules (LimiterRule).
func parseLimiterRules(v *yaml.Node, d *Dialect, builtin bool, bad badFunc) error {
	if v.Kind == yaml.ScalarNode {
		l, err := parseLimiterText(v.Value)
		if err != nil {
			return bad(v, "limiter", "%v", err)
		}
		d.Limiter = l
		if builtin {
			d.Limiters = []LimiterRule{{Limiter: l}}
		}
		return nil
	}
	if !builtin {
		return bad(v, "limiter", "want exponential BASE..MAX, as exponential 5ms..16m40s")
	}
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return bad(v, "limiter", "want exponential BASE..MAX, or a list of rules")
	}
	for _, n := range v.Content {
		rm, err := members(n, "limiter[]", []string{"controller", "controller-prefix", "before", "limiter"}, bad)
		if err != nil {
			return err
		}
		var r LimiterRule
		if r.Controllers, err = stringList(rm["controller"], "limiter[].controller", bad); err != nil {
			return err
		}
		if r.Prefixes, err = stringList(rm["controller-prefix"], "limiter[].controller-prefix", bad); err != nil {
			return err
		}
		if b := rm["before"]; b != nil {
			t, err := time.Parse(time.DateOnly, b.Value)
			if err != nil {
				return bad(b, "limiter[].before", "%q: want a date, as 2022-04-12", b.Value)
			}
			r.Before = t
		}
		l := rm["limiter"]
		switch {
		case l == nil:
			return bad(n, "limiter[].limiter", "a rule needs its limiter: exponential BASE..MAX, or default")
		case l.Value != "default":
			if r.Limiter, err = parseLimiterText(l.Value); err != nil {
				return bad(l, "limiter[].limiter", "%v", err)
			}
		}
		d.Limiters = append(d.Limiters, r)
	}
	return nil
}

// parseLineExt reads the built-in fields of a line.
func parseLineExt(m map[string]*yaml.Node, l *DialectLine, bad badFunc) error {
	if v := m["key-sep"]; v != nil {
		l.KeySep = v.Value
	}
	if v := m["error-suffix"]; v != nil {
		l.ErrorSuffix = v.Value
	}
	if v := m["duration-after"]; v != nil {
		l.DurationAfter = v.Value
	}
	if v := m["requeue-after-field"]; v != nil {
		b, err := boolValue(v, "requeue-after-field", bad)
		if err != nil {
			return err
		}
		l.RequeueAfterField = b
	}
	if v := m["key"]; v != nil {
		if v.Value != "namespace" {
			return bad(v, "key", "%q: want namespace", v.Value)
		}
		l.KeyIsNamespace = true
	}
	return nil
}

// builtinMeanings are the meanings only the built-in dialects' lines have:
// controller-runtime's V(5) lines, the priority queue's and the forget's.
var builtinMeanings = map[string]What{"start": StartLine, "requeue": RequeueLine, "queue": QueueLine, "forget": ForgetLine}

func boolValue(n *yaml.Node, field string, bad badFunc) (bool, error) {
	switch n.Value {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, bad(n, field, "%q: want true or false", n.Value)
}

// stringList reads a list of strings (or one); nil for no node.
func stringList(n *yaml.Node, field string, bad badFunc) ([]string, error) {
	switch {
	case n == nil:
		return nil, nil
	case n.Kind == yaml.ScalarNode:
		return []string{n.Value}, nil
	case n.Kind != yaml.SequenceNode:
		return nil, bad(n, field, "want a list of strings")
	}
	var out []string
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.Value == "" {
			return nil, bad(c, field, "want a list of strings")
		}
		out = append(out, c.Value)
	}
	return out, nil
}

// errNotBuiltin refuses a built-in field in a dialect file.
func errNotBuiltin(field string) string {
	return fmt.Sprintf("only the built-in dialects use %s (yet): a file's lines are read by text, prefix or regexp and their groups", field)
}

// keyFields are the fields a key-field may name: those the scan of a line
// keeps as its family's own key (fields.set's alt). Code, not data: the
// scan's switch on a field's name is the reader's hot path.
var keyFields = map[string]bool{"key": true, "objectReference": true, "deployment": true, knativeKey: true}

func keyFieldNames() []string {
	out := make([]string, 0, len(keyFields))
	for k := range keyFields {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
