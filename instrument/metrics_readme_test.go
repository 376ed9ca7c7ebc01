package instrument

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestReadmeAlertRules: the example rules in the README's Alerting section
// are a well-formed rules file that names only series the probe exports.
func TestReadmeAlertRules(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Alerting\n")
	if !ok {
		t.Fatal(`README.md has no "## Alerting" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	_, block, ok := strings.Cut(section, "```yaml\ngroups:")
	if !ok {
		t.Fatal("the Alerting section has no ```yaml rules file")
	}
	block, _, _ = strings.Cut("groups:"+block, "```")
	var rules struct {
		Groups []struct {
			Name  string `json:"name"`
			Rules []struct {
				Alert       string            `json:"alert"`
				Expr        string            `json:"expr"`
				For         string            `json:"for,omitempty"`
				Labels      map[string]string `json:"labels,omitempty"`
				Annotations map[string]string `json:"annotations,omitempty"`
			} `json:"rules"`
		} `json:"groups"`
	}
	if err := yaml.UnmarshalStrict([]byte(block), &rules); err != nil {
		t.Fatalf("the README's rules: %v", err)
	}
	exported := map[string]bool{MetricKeys: true, MetricOldestFailure: true, MetricMaxFailures: true, MetricKeysAtCap: true, MetricForgets: true}
	series := regexp.MustCompile(`kubectl_backoff_[a-z_]+`)
	n := 0
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			n++
			if r.Alert == "" || r.Expr == "" {
				t.Errorf("rule %+v: want alert and expr", r)
			}
			for _, s := range series.FindAllString(r.Expr, -1) {
				if !exported[s] {
					t.Errorf("rule %s: %s is not a series the probe exports", r.Alert, s)
				}
			}
		}
	}
	if n == 0 {
		t.Error("the README's rules file has no rule")
	}
	for _, s := range series.FindAllString(section, -1) {
		if !exported[s] {
			t.Errorf("the Alerting section names %s, which the probe does not export", s)
		}
	}
}
