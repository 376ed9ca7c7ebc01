package logs

import (
	"errors"
	"strings"
	"testing"
)

// A dialect's regexp is bounded as the endpoint bounds a filter (one
// bound, query.CompileRegexp): these compiled at once and then took 40 s on
// one 1 MB line, and 16 s (against 0.26) on 20,000 short ones.
func TestDialectRegexpCostBounded(t *testing.T) {
	for _, expr := range []string{
		`[^x]{1000}[^y]{1000}[^z]{1000}Q`,
		`(?i)(?:\w{0,1000})(?:\w{0,1000})z(?P<key>\S+)`,
	} {
		file := "dialects:\n- name: w\n  lines:\n  - regexp: '" + expr + "'\n    means: failure\n"
		_, err := parseDialects("d.yaml", []byte(file))
		var de *DialectError
		if !errors.As(err, &de) || de.Line != 4 || de.Field != "regexp" || !strings.Contains(de.Err, "the regular expression") {
			t.Errorf("%s: %v; want d.yaml:4: regexp: refused for its cost", expr, err)
		}
	}
}
