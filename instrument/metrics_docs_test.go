package instrument

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// seriesName is how a probe's series is spelt in a rules file or a doc.
var seriesName = regexp.MustCompile(`kubectl_backoff_[a-z_]+`)

// TestDocumentedSeriesAreExported: the alert rules shipped in
// config/prometheus/rules.yaml and the Alerting section of
// docs/operations.md name only series the probe exports. (That the rules
// are a file Prometheus accepts is config's TestPrometheusRules, with
// Prometheus' own parser, kept out of this package's dependencies.)
func TestDocumentedSeriesAreExported(t *testing.T) {
	rules, err := os.ReadFile("../config/prometheus/rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ops, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(ops), "\n## Alerting\n")
	if !ok {
		t.Fatal(`docs/operations.md has no "## Alerting" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for name, text := range map[string]string{"config/prometheus/rules.yaml": string(rules), "docs/operations.md's Alerting section": section} {
		found := unexportedSeries(text)
		if found == nil {
			t.Errorf("%s names no series", name)
		}
		for s, ok := range found {
			if !ok {
				t.Errorf("%s names %s, which the probe does not export", name, s)
			}
		}
	}
}

// unexportedSeries maps every series name in text to whether the probe
// exports it.
func unexportedSeries(text string) map[string]bool {
	exported := map[string]bool{MetricKeys: true, MetricOldestFailure: true, MetricMaxFailures: true, MetricKeysAtCap: true, MetricForgets: true,
		MetricWorstKeyFailures: true, MetricWorstKeyRetry: true}
	// A histogram is read through its three series.
	for _, suffix := range []string{"", "_bucket", "_sum", "_count"} {
		exported[MetricRateLimiterDelay+suffix] = true
	}
	var out map[string]bool
	for _, s := range seriesName.FindAllString(text, -1) {
		if out == nil {
			out = map[string]bool{}
		}
		out[s] = exported[s]
	}
	return out
}

// TestUnexportedSeriesCanFail: a misspelt series is caught.
func TestUnexportedSeriesCanFail(t *testing.T) {
	got := unexportedSeries("expr: kubectl_backoff_keys > 0 and kubectl_backoff_key_at_cap > 0")
	if !got["kubectl_backoff_keys"] || got["kubectl_backoff_key_at_cap"] || len(got) != 2 {
		t.Errorf("got %v, want kubectl_backoff_keys exported, kubectl_backoff_key_at_cap not", got)
	}
}
