package logs

import (
	"slices"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// The fields of the dialect format beyond name, controller, limiter and
// lines, and their lines' beyond text, prefix, regexp and means: what a
// project's lines need said of them (builtin.yaml's header says each).

// ControllerFrom says where a line without a "controller" field names its
// controller: the logger's name (Logger), else the caller's file (Caller:
// "controller" for controller.go:321, renamed by Files where it names the
// file: kube-controller-manager's replica_set.go is its
// "replicaset-controller"), else Name.
type ControllerFrom struct {
	Logger loggerRule
	Caller bool
	Files  map[string]string
	Name   string
}

// loggerRule says how a line's logger name names the controller.
type loggerRule uint8

const (
	// loggerNone: the logger's name does not name the controller.
	loggerNone loggerRule = iota
	// loggerController: "controller-runtime.manager.controller.NAME" or
	// "controller/NAME" (controller-runtime before v0.11, Flux before v0.20).
	loggerController
	// loggerLast: its last segment ("cert-manager/controller/NAME").
	loggerLast
	// loggerWhole: the whole name.
	loggerWhole
)

// loggerRules are controller-from's logger values.
var loggerRules = map[string]loggerRule{"controller": loggerController, "last": loggerLast, "name": loggerWhole}

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
// logger, and no level is advised. Controllers, when given, are the only
// controllers it holds for (kube-controller-manager's that log each sync's
// end at V(4), not its HPA's): the others log no success the dialect
// reads, at any level.
type Advice struct {
	Successes   map[string]string
	Controllers []string
}

// successesAdvice is how the controller of r is made to log the successes
// its dialect (a built-in, else one of user) reads, as the dialect advises for the logger that wrote the
// line (api.ListSource.SuccessesHow): zap (its console, or its JSON:
// Record.Sampled), klog, or other (slog, logrus, logfmt). Empty when the
// dialect advises none, or none for r's controller; own says the advice is
// the controller's alone (Advice.Controllers), not the whole log's.
func successesAdvice(r *Record, user []Dialect) (how string, own bool) {
	name, fm, _ := strings.Cut(r.Dialect, " (")
	var a Advice
	for _, ds := range [][]Dialect{builtins, user} {
		if i := slices.IndexFunc(ds, func(d Dialect) bool { return d.Name == name }); i >= 0 {
			a = ds[i].Advice
			break
		}
	}
	own = len(a.Controllers) > 0
	if own && !contains(a.Controllers, r.Controller) {
		return "", false
	}
	switch strings.TrimSuffix(fm, ")") {
	case formatNames[fmtKlog]:
		return a.Successes["klog"], own
	case formatNames[fmtConsole]:
		return a.Successes["zap"], own
	case formatNames[fmtJSON]:
		if r.Sampled {
			return a.Successes["zap"], own
		}
	}
	return a.Successes["other"], own
}

// limiterFor is the limiter the first rule that holds gives; zero when none
// holds, or it says the queue's default.
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

// parseDialectExt reads the fields of dialect n (m, its members) beyond
// the first four into d.
func parseDialectExt(m map[string]*yaml.Node, d *Dialect, bad badFunc) error {
	// Without controller-from: the logger's name, the caller's file, the
	// dialect's own name — a dialect written without controller: reads
	// its lines under its name rather than dropping them. controller-from:
	// {} says only the line's controller field names it.
	d.From = ControllerFrom{Logger: loggerWhole, Caller: true, Name: d.Name}
	if v := m["controller-from"]; v != nil {
		d.From = ControllerFrom{}
		cm, err := members(v, "controller-from", []string{"logger", "caller", "files", "name"}, bad)
		if err != nil {
			return err
		}
		if l := cm["logger"]; l != nil {
			r, ok := loggerRules[l.Value]
			if !ok {
				return bad(l, "controller-from.logger", "%q: want controller, last or name", l.Value)
			}
			d.From.Logger = r
		}
		if fm := cm["files"]; fm != nil {
			if d.From.Files, err = stringMap(fm, "controller-from.files", bad); err != nil {
				return err
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
	// A controller whose limiter is not said runs client-go's default
	// (DefaultControllerRateLimiter, bucket and all) on a bare client-go
	// queue unless the dialect says otherwise.
	d.ClientGo = len(d.Limiters) == 0
	if v := m["queue"]; v != nil {
		switch v.Value {
		case "client-go":
			d.ClientGo = true
		case "controller-runtime":
			d.ClientGo = false
		default:
			return bad(v, "queue", "%q: want client-go or controller-runtime", v.Value)
		}
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
	if v := m["advice"]; v != nil {
		am, err := members(v, "advice", []string{"successes", "controllers"}, bad)
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
		if d.Advice.Controllers, err = stringList(am["controllers"], "advice.controllers", bad); err != nil {
			return err
		}
	}
	return nil
}

// parseLimiterRules reads a limiter: "exponential BASE..MAX" alone, or a
// list of rules (LimiterRule).
func parseLimiterRules(v *yaml.Node, d *Dialect, bad badFunc) error {
	if v.Kind == yaml.ScalarNode {
		l, err := parseLimiterText(v.Value)
		if err != nil {
			return bad(v, "limiter", "%v", err)
		}
		d.Limiters = []LimiterRule{{Limiter: l}}
		return nil
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

// parseLineExt reads the fields of a line beyond the first five.
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
	if v := m["known-keys"]; v != nil {
		b, err := boolValue(v, "known-keys", bad)
		if err != nil {
			return err
		}
		if b && l.Means != SuccessLine && l.Means != RequeueAfterLine {
			return bad(v, "known-keys", "a success or requeue-after line only: it settles a key it does not make")
		}
		l.KnownKeys = b
	}
	if v := m["key"]; v != nil {
		switch v.Value {
		case "namespace":
			l.KeyIsNamespace = true
		case "field":
			l.KeyInField = true
		case "attempt":
			if l.Means != ErrorLine {
				return bad(v, "key", "attempt: the key of a failure line only (means: failure, dropped or terminal)")
			}
			l.KeyFromAttempt = true
		default:
			return bad(v, "key", "%q: want namespace, field or attempt", v.Value)
		}
	}
	return nil
}

func boolValue(n *yaml.Node, field string, bad badFunc) (bool, error) {
	switch n.Value {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, bad(n, field, "%q: want true or false", n.Value)
}

// stringMap reads a mapping of strings to strings (non-empty).
func stringMap(n *yaml.Node, field string, bad badFunc) (map[string]string, error) {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return nil, bad(n, field, "want a mapping of strings to strings")
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || k.Value == "" || v.Value == "" {
			return nil, bad(k, field, "want a mapping of strings to strings")
		}
		if _, ok := out[k.Value]; ok {
			return nil, bad(k, field+"."+k.Value, "given twice: give it once")
		}
		out[k.Value] = v.Value
	}
	return out, nil
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

// keyFields are the fields a key-field may name: those the scan of a line
// keeps as its dialect's own key (fields.set's alt). Code, not data: the
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
