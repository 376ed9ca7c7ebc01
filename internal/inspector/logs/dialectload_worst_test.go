package logs

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestParseDialectsWorstInputs: FuzzParseDialects once sat 6 s at 0
// execs/s in CI. No input of the fuzzer's size (4 KB) is slow to parse: the
// worst of its corpus (142 entries) took 0.4 ms, and these, built to be
// worst, take at most 11 ms (measured on a 2-core runner, 2026-12-07): the
// deepest nesting YAML allows in 4 KB, aliases nested 8 deep, counted
// repetitions (refused by size before they compile), the longest
// alternation and class, and a case-folded literal. The stall is the
// fuzzer's own: run here, it spends 6 s on its coverage baseline (147
// entries), then shows 0 execs/s for seconds while it minimizes a new
// input (3 bytes), runs it does not count. The bound is loose, for a busy
// runner: what it catches is a parse gone exponential.
func TestParseDialectsWorstInputs(t *testing.T) {
	rule := func(expr string) string {
		return "dialects:\n- name: w\n  lines:\n  - regexp: '" + expr + "'\n    means: failure\n"
	}
	var aliases strings.Builder
	aliases.WriteString("a: &a [x,x,x,x,x,x,x,x,x]\n")
	prev := "a"
	for i := range 8 {
		n := fmt.Sprintf("b%d", i)
		fmt.Fprintf(&aliases, "%s: &%s [%s]\n", n, n, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ","))
		prev = n
	}
	fmt.Fprintf(&aliases, "dialects: [{name: w, lines: *%s}]\n", prev)
	for name, raw := range map[string]string{
		"nesting":          "dialects: " + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + "\n",
		"aliases":          aliases.String(),
		"nested repeats":   rule(`((((((((((a{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})`),
		"counted repeats":  rule(`(?:a{1000}b{1000}c{1000}d{1000})`),
		"any char repeats": rule(`(?s).{1000}.{1000}.{1000}`),
		"alternation":      rule(strings.Repeat("a|", 500) + "b"),
		"class":            rule(`[^\x00-\x{10FFFF}]{1000}`),
		"case folded":      rule("(?i)" + strings.Repeat("k", 1000)),
	} {
		if len(raw) > 4096 {
			t.Fatalf("%s: %d bytes, over the fuzzer's 4096", name, len(raw))
		}
		start := time.Now()
		_, _ = parseDialects("f.yaml", []byte(raw))
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: parsing %d bytes took %v", name, len(raw), took)
		}
	}
}
