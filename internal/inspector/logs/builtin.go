package logs

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// builtinYAML is the built-in dialects, the file the binary ships: read by
// the loader of --dialect FILE, with the fields only built-ins use.
//
//go:embed dialects/builtin.yaml
var builtinYAML []byte

// builtinFile names the embedded file in what its loader says.
const builtinFile = "dialects/builtin.yaml"

// families is the dialect table, compiled from the built-in dialects:
// messages are matched in order, the first match wins. A malformed
// built-in cannot ship: TestBuiltinDialectsLoad loads it, and a failure
// here stops every test of the package.
var families = func() []family {
	ds, err := parseDialects(builtinFile, builtinYAML, true)
	if err != nil {
		panic(fmt.Sprintf("the built-in dialects: %v", err))
	}
	out := make([]family, len(ds))
	for i, d := range ds {
		out[i] = familyOf(d)
	}
	return out
}()

// familyOf compiles a dialect into the family the matcher reads.
func familyOf(d Dialect) family {
	fam := family{
		name: d.Name, keyField: d.KeyField, logger: d.From.Logger, callerStem: d.From.Caller, fixed: d.From.Name,
		clientGo: d.ClientGo, successesLogged: d.SuccessesLogged, limiters: d.Limiters, limiterShared: d.LimiterShared,
		markers: d.Markers, failMarkers: d.FailMarkers, advice: d.Advice,
	}
	for _, l := range d.Lines {
		fam.messages = append(fam.messages, message{
			text: l.Text, prefix: l.Prefix, what: l.Means, keySep: l.KeySep, errSuffix: l.ErrorSuffix,
			dur: l.DurationAfter, afterField: l.RequeueAfterField, keyIsNamespace: l.KeyIsNamespace,
		})
	}
	return fam
}

// markers are what every message of the dialects contains, at least one of
// them: a line with none is skipped before any parsing, which is most of a
// busy controller's log. failMarkers are those of failure lines: a line
// with one that cannot be read is counted as unreadable.
var markers, failMarkers = func() (m [][]byte, fail []string) {
	var all []string
	add := func(s string) {
		if s != "" && !slices.Contains(all, s) {
			all = append(all, s)
		}
	}
	for _, fam := range families {
		for _, s := range fam.markers {
			add(s)
			add(escaped(s))
		}
		// Every message is its own marker too, as a JSON or logfmt
		// value writes it (a quote escaped): a family's markers, kept by
		// hand, missed prometheus-operator's `sync "` and every quoted
		// message inside a JSON "msg".
		for _, m := range fam.messages {
			add(m.text)
			add(escaped(m.text))
		}
		for _, s := range fam.failMarkers {
			if !slices.Contains(fail, s) {
				fail = append(fail, s)
			}
		}
	}
	for _, s := range all {
		m = append(m, []byte(s))
	}
	return append(m, genericMarkers...), fail
}()

// escaped is s as a JSON string or a quoted logfmt or klog value writes
// it (quotes and backslashes escaped), or "" when that is s itself.
func escaped(s string) string {
	if !strings.ContainsAny(s, `"\`) {
		return ""
	}
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
