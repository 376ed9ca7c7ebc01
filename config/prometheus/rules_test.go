package prometheus

import (
	"fmt"
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// rulesFile is the alerting rules file docs/operations.md points at.
const rulesFile = "rules.yaml"

// TestPrometheusRules: the rules file is one Prometheus accepts, checked by
// the parser promtool's "check rules" runs (rulefmt: strict YAML, PromQL,
// durations, the annotation templates), and every series it selects is one
// the probe exports, with label values the probe writes.
func TestPrometheusRules(t *testing.T) {
	p := parser.NewParser(parser.Options{})
	groups, errs := rulefmt.ParseFile(rulesFile, false, model.UTF8Validation, p, slog.New(slog.NewTextHandler(io.Discard, nil)))
	for _, err := range errs {
		t.Errorf("promtool would refuse it: %v", err)
	}
	if len(errs) > 0 {
		return
	}
	for _, problem := range ruleProblems(groups, p) {
		t.Error(problem)
	}
	if len(groups.Groups) == 0 || len(groups.Groups[0].Rules) == 0 {
		t.Errorf("%s has no rule", rulesFile)
	}
}

// exported are the series a probe registers, with the values each label
// takes ("controller" takes any controller's name).
var exported = map[string]map[string][]string{
	instrument.MetricKeys:          {"state": states()},
	instrument.MetricOldestFailure: {},
	instrument.MetricMaxFailures:   {},
	instrument.MetricKeysAtCap:     {},
	instrument.MetricForgets:       {"outcome": {instrument.ForgetRequeued, instrument.ForgetReset}},
}

func states() []string {
	var out []string
	for _, s := range api.States {
		out = append(out, string(s))
	}
	return out
}

// ruleProblems are what is wrong with the rules' series: a recording rule
// (the file holds alerts), a series no probe exports, a label it does not
// carry or a value of it the probe never writes.
func ruleProblems(groups *rulefmt.RuleGroups, p parser.Parser) []string {
	var out []string
	for _, g := range groups.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				out = append(out, fmt.Sprintf("rule %q: a recording rule; the file holds alerts", r.Record))
			}
			expr, err := p.ParseExpr(r.Expr)
			if err != nil {
				out = append(out, fmt.Sprintf("alert %s: %v", r.Alert, err))
				continue
			}
			for _, sel := range parser.ExtractSelectors(expr) {
				out = append(out, selectorProblems(r.Alert, sel)...)
			}
		}
	}
	return out
}

func selectorProblems(alert string, sel []*labels.Matcher) []string {
	var name string
	for _, m := range sel {
		if m.Name == labels.MetricName && m.Type == labels.MatchEqual {
			name = m.Value
		}
	}
	values, ok := exported[name]
	if !ok {
		return []string{fmt.Sprintf("alert %s: selects %q, which no probe exports", alert, name)}
	}
	var out []string
	for _, m := range sel {
		if m.Name == labels.MetricName || m.Name == "controller" || m.Name == "namespace" {
			continue // namespace: put on by the scrape configuration
		}
		want, ok := values[m.Name]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("alert %s: %s has no label %q", alert, name, m.Name))
		case m.Type == labels.MatchEqual && !slices.Contains(want, m.Value):
			out = append(out, fmt.Sprintf("alert %s: %s{%s=%q}: the probe writes only %v", alert, name, m.Name, m.Value, want))
		}
	}
	return out
}

// TestPrometheusRulesCheckCanFail: the checks above refuse a rule with a
// PromQL error, one on a series the probe does not export, and one on a
// label or label value it never writes.
func TestPrometheusRulesCheckCanFail(t *testing.T) {
	p := parser.NewParser(parser.Options{})
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	file := func(expr string) []byte {
		return []byte("groups:\n- name: g\n  rules:\n  - alert: A\n    expr: '" + expr + "'\n")
	}
	if _, errs := rulefmt.Parse(file("max by (controller (kubectl_backoff_keys)"), false, model.UTF8Validation, p, logger); len(errs) == 0 {
		t.Error("rulefmt accepted an unbalanced expression")
	}
	for _, expr := range []string{`kubectl_backoff_keys_total > 0`, `kubectl_backoff_keys{state="waiting"} > 0`, `kubectl_backoff_max_failures{reason="x"} > 0`} {
		groups, errs := rulefmt.Parse(file(expr), false, model.UTF8Validation, p, logger)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", expr, errs)
		}
		if len(ruleProblems(groups, p)) == 0 {
			t.Errorf("%s: passed the series check", expr)
		}
	}
}
