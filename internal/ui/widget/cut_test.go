package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A key too wide for its column keeps its start and its end: rows of one
// controller stay apart.
func TestFitKey(t *testing.T) {
	for _, tc := range []struct {
		key  string
		w    int
		want string
	}{
		{"demo/wellbehaved-00012", 30, "demo/wellbehaved-00012        "},
		{"demo/wellbehaved-00012", 22, "demo/wellbehaved-00012"},
		{"demo/wellbehaved-00012", 20, "demo/well…aved-00012"},
		{"demo/wellbehaved-00012", 19, "demo/well…ved-00012"},
		{"demo/conflicts-00012", 16, "demo/co…ts-00012"},
		{"demo/conflicts-00012", 12, "dem…ts-00012"}, // the last 8 cells stay
		{"demo/conflicts-00012", 8, "dem…0012"},      // too narrow for 8: half each
		{"demo/日本語のなまえ-0012", 16, "demo/日…え-0012 "},  // a wide rune goes whole; the gap is padded
		{"demo/x-00012", 2, "d…"},
	} {
		got := FitKey(tc.key, tc.w)
		if got != tc.want {
			t.Errorf("fitKey(%q, %d) = %q, want %q", tc.key, tc.w, got, tc.want)
		}
		if w := ansi.StringWidth(got); w != tc.w {
			t.Errorf("fitKey(%q, %d) is %d cells wide, want %d", tc.key, tc.w, w, tc.w)
		}
	}
}

// An error message too wide keeps its end, from a word's start: what went
// wrong is there.
func TestFitMessage(t *testing.T) {
	const msg = "sync with inventory API: PUT https://inventory.demo.svc/v1/items/…: 503 Service Unavailable"
	for _, tc := range []struct {
		w    int
		want string
	}{
		{100, Fit(msg, 100)},
		{33, "sync with…503 Service Unavailable"},
		{20, "sync wit…Unavailable"}, // "Service Unavailable" would leave the start under a quarter
	} {
		got := FitMessage(msg, tc.w)
		if got != tc.want {
			t.Errorf("fitMessage(%d) = %q, want %q", tc.w, got, tc.want)
		}
		if w := ansi.StringWidth(got); w != tc.w {
			t.Errorf("fitMessage(%d) is %d cells wide, want %d", tc.w, w, tc.w)
		}
	}
}

// An error whose cause is in its middle keeps it, its generated names
// shortened: the middle cut at 160 columns showed `pods "web-5fc9f4b…used:
// pods=0, limited: pods=0` of kube-controller-manager's quota error
// (testdata/kcm/replicaset-quota-raised-v4.log; newcomer ui11).
func TestFitMessageKeepsTheCause(t *testing.T) {
	const msg = `sync "q4/web-5fc9f4bf66" failed with pods "web-5fc9f4bf66-26t7q" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0`
	got := FitMessage(msg, 47)
	if !strings.Contains(got, "exceeded quota: q") || !strings.Contains(got, "forbidden") {
		t.Errorf("FitMessage(…, 47) = %q, want it to keep \"forbidden: exceeded quota: q\"", got)
	}
	if w := ansi.StringWidth(got); w != 47 {
		t.Errorf("FitMessage(…, 47) is %d cells wide, want 47", w)
	}
}
