package objstatus

import (
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	at := time.Date(2026, 11, 30, 9, 48, 0, 0, time.UTC)
	ago := func(tt time.Time) string {
		if !tt.Equal(at) {
			t.Errorf("ago(%v), want the change's time %v", tt, at)
		}
		return "12m ago"
	}
	six, minus := int64(6), int64(-1)
	change := &Change{Manager: "kubectl-client-side-apply", Time: at}
	for _, tc := range []struct {
		name string
		v    Verdict
		c    *Change
		want string
	}{
		{"not observed yet", Verdict{Status: InProgress, Generation: 7, ObservedGeneration: &six}, change,
			"not ready yet (InProgress): generation 7, changed 12m ago by kubectl-client-side-apply; the controller has observed 6"},
		{"never reconciled", Verdict{Status: InProgress, Generation: 1, ObservedGeneration: &minus, NeverReconciled: true}, nil,
			"not ready yet (InProgress): generation 1; the controller has never reconciled it (observedGeneration -1)"},
		{"no observedGeneration", Verdict{Status: Current, Generation: 2}, nil,
			"ready (Current): generation 2; the kind has no status.observedGeneration"},
		{"observed per condition (Cluster API v1beta2)", Verdict{Status: InProgress, Generation: 3, Conditions: []Condition{
			{Type: "Available", Status: "True", ObservedGeneration: 3}, {Type: "RollingOut", Status: "True", ObservedGeneration: 2}}}, nil,
			"not ready yet (InProgress): generation 3; its conditions say the controller has observed 3"},
		// A ConfigMap has no metadata.generation: not "generation 0".
		{"no generation (a ConfigMap), changed", Verdict{Status: Current, KindNoStatus: true}, change,
			"ready (Current): changed 12m ago by kubectl-client-side-apply; the kind has no status, so it cannot say whether a controller has seen the change"},
		{"no generation, no change known", Verdict{Status: Current, KindNoStatus: true}, nil,
			"ready (Current): the kind has no status, so it cannot say whether a controller has seen the change"},
	} {
		if got := Line(tc.v, tc.c, ago); got != tc.want {
			t.Errorf("%s: Line =\n %q\nwant\n %q", tc.name, got, tc.want)
		}
	}
}
