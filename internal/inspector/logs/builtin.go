package logs

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// builtinYAML is the built-in dialects, the file the binary ships: read by
// the loader of --dialect FILE, and then by the same reader.
//
//go:embed dialects/builtin.yaml
var builtinYAML []byte

// builtinFile names the embedded file in what its loader says.
const builtinFile = "dialects/builtin.yaml"

// builtins are the built-in dialects, in the order their lines are tried:
// the first line that matches wins. A malformed built-in cannot ship:
// TestBuiltinDialectsLoad loads it, and a failure here stops every test of
// the package.
var builtins = func() []Dialect {
	ds, err := parseDialects(builtinFile, builtinYAML)
	if err != nil {
		panic(fmt.Sprintf("the built-in dialects: %v", err))
	}
	return ds
}()

// compile derives what the reader needs of d's data: its name in each
// format, and its markers.
func (d *Dialect) compile() {
	for fm, name := range formatNames {
		d.names[fm] = d.Name + " (" + name + ")"
	}
	d.markers, d.failMarkers = markersOf(d.Lines)
}

// markersOf are the markers of lines, derived from them: a line with none
// of any loaded dialect's markers is skipped before any parsing, which is
// most of a busy controller's log; a line with a failure marker that
// cannot be read is counted as unreadable. A line's markers are its text
// and the text as a JSON or logfmt value writes it (a quote escaped); a
// regexp's, its literal start — none says every line may be one ("").
func markersOf(lines []DialectLine) (markers, fail []string) {
	add := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	for _, l := range lines {
		text := l.Text
		if l.Regexp != nil {
			text, _ = l.Regexp.LiteralPrefix()
		}
		for _, s := range []string{text, escaped(text)} {
			if s == "" && text != "" {
				continue // escaped: the text itself
			}
			add(&markers, s)
		}
		if l.Means == ErrorLine && text != "" {
			add(&fail, failurePhrase(text))
		}
	}
	return markers, fail
}

// failurePhrase is the phrase of a failure line's text that says it failed:
// the text up to where its key or a clause begins (a quote, a colon, a
// comma, a semicolon: "Error syncing" of "Error syncing; requeuing for
// later retry", "error syncing" of "error syncing '"), when that is two
// words or more; else the text. A line that holds it is a failure of the
// kind even where the rest differs, and one not read is unreadable.
func failurePhrase(text string) string {
	if i := strings.IndexAny(text, `;:,'"`); i > 0 {
		if head := strings.TrimSpace(text[:i]); strings.Contains(head, " ") {
			return head
		}
	}
	return text
}

// codeMarkers are the markers of what code, not a dialect, reads: client-go's
// HandleError line, whose error is the message (unhandledError), is a
// failure reported whoever reads it.
var codeMarkers = []string{unhandledError}

// markers are what every line the built-in dialects and the generic
// reader read contains, at least one of them; failMarkers those of
// failure lines.
var markers, failMarkers = func() (m [][]byte, fail []string) {
	all := slices.Clone(codeMarkers)
	fail = slices.Clone(codeMarkers)
	for _, d := range builtins {
		for _, s := range d.markers {
			if !slices.Contains(all, s) {
				all = append(all, s)
			}
		}
		for _, s := range d.failMarkers {
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
