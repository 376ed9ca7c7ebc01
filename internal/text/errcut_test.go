package text

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// realErrors are the errors of the log-mode fixtures the cut is judged
// on: kube-controller-manager's (testdata/kcm) whole, and the first 80
// runes of every training batch's answers (batch*/expected.json).
func realErrors(t *testing.T) []string {
	t.Helper()
	const testdata = "../inspector/logs/testdata"
	var out []string
	logs, _ := filepath.Glob(filepath.Join(testdata, "kcm", "*.log"))
	errField := regexp.MustCompile(` err="((?:[^"\\]|\\.)*)"`)
	for _, f := range logs {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range errField.FindAllStringSubmatch(string(b), -1) {
			if s, err := strconv.Unquote(`"` + m[1] + `"`); err == nil {
				out = append(out, s)
			}
		}
	}
	batches, _ := filepath.Glob(filepath.Join(testdata, "batch*", "expected.json"))
	for _, f := range batches {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var answers map[string][]struct{ Err string }
		if err := json.Unmarshal(b, &answers); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, keys := range answers {
			for _, k := range keys {
				out = append(out, k.Err)
			}
		}
	}
	if len(out) < 100 {
		t.Fatalf("read %d real errors from %s, want 100 or more", len(out), testdata)
	}
	return out
}

// TestCutErrorKeepsTheCause: the words a user acts on survive the cut, on
// real errors. The middle cut kept `pods "web-5fc9f4b…used: pods=0,
// limited: pods=0` of the first (newcomer ui11).
func TestCutErrorKeepsTheCause(t *testing.T) {
	for _, c := range []struct {
		source, err string
		n           int
		keep        []string
	}{
		{"testdata/kcm/replicaset-quota-raised-v4.log",
			`sync "q4/web-5fc9f4bf66" failed with pods "web-5fc9f4bf66-26t7q" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0`,
			47, []string{`pods "web-…" is forbidden: exceeded quota: q`}},
		{"testdata/batch7/705-approver-policy-klogr-reconciler-error-certificaterequest.log",
			`failed to apply connection patch: admission webhook "webhook.cert-manager.io" denied the request: status.conditions: Forbidden: 'Approved' condition may not be modified once set`,
			60, []string{`admission webhook "webhook.cert-manager.io"`}},
		{"testdata/kcm/job-podsecurity-v4.log",
			`pods "migrate-jxl6j" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "migrate" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "migrate" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "migrate" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "migrate" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`,
			60, []string{`forbidden: violates PodSecurity "restricted:latest"`}},
		{"testdata/kcm/replicaset-quota-raised-v4.log, resolved (top's ✓ mark)",
			`✓ Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`,
			55, []string{`✓ Operation cannot be fulfilled`}},
		{"the demo's flaky dependency",
			`sync with inventory: PUT https://inventory.demo.svc/v1/items/w1: 503 Service Unavailable`,
			50, []string{"sync with inventory", "503 Service Unavailable"}},
	} {
		got := CutError(c.err, c.n, Cells)
		if w := Cells.Width(got); w > c.n {
			t.Errorf("%s: CutError(…, %d) = %q, %d cells", c.source, c.n, got, w)
		}
		for _, k := range c.keep {
			if !strings.Contains(got, k) {
				t.Errorf("%s: CutError(…, %d) = %q, want it to keep %q", c.source, c.n, got, k)
			}
		}
	}
}

// TestCutErrorWholeWords: on every real error and at every width, the cut
// fits, and, from minWordCut cells, what it keeps is whole words of the
// error (its generated names
// shortened), unless a word too long for the room stood in the way.
func TestCutErrorWholeWords(t *testing.T) {
	for _, s := range realErrors(t) {
		s = strings.Join(strings.Fields(s), " ")
		short := ShortenNames(s)
		for _, n := range []int{minWordCut, 47, 60, 80} { // narrower is CutMiddle's
			got := CutError(s, n, Cells)
			if w := Cells.Width(got); w > n {
				t.Fatalf("CutError(%q, %d) = %q, %d cells", s, n, got, w)
			}
			if got == s || got == short {
				continue
			}
			longWord := false
			for _, w := range strings.Fields(short) {
				longWord = longWord || Cells.Width(w)*3 > n
			}
			// A shortened name's "…" is no cut: marked apart first.
			for _, piece := range strings.Split(markShort(got), "…") {
				if piece == "" {
					continue
				}
				whole := strings.Contains(" "+markShort(short)+" ", " "+piece+" ")
				if !whole && !longWord {
					t.Errorf("CutError(%q, %d) = %q: %q is not whole words of %q", s, n, got, piece, short)
				}
			}
		}
	}
}

// shortMark is the "…" of a name ShortenNames shortened.
var shortMark = regexp.MustCompile(`-…"|[0-9a-f]{8}…`)

// markShort marks the "…" of the names shortened in s apart from a cut's.
func markShort(s string) string {
	return shortMark.ReplaceAllStringFunc(s, func(m string) string { return strings.ReplaceAll(m, "…", "\x00") })
}

func TestShortenNames(t *testing.T) {
	for in, want := range map[string]string{
		`pods "web-5fc9f4bf66-5wc4w" is forbidden`:       `pods "web-…" is forbidden`,
		`sync "q4/web-5fc9f4bf66" failed`:                `sync "q4/web-…" failed`,
		`uid 3f2a9c1e-0b7d-4c59-9a6e-2f4e8d1c7b30 gone`:  `uid 3f2a9c1e… gone`,
		`deployments.apps "web-server" not found`:        `deployments.apps "web-server" not found`, // a word, not a suffix
		`secret "cert-sync" not found`:                   `secret "cert-sync" not found`,            // no digit: a word
		`webhook "validate.widgets.example.com" refused`: `webhook "validate.widgets.example.com" refused`,
	} {
		if got := ShortenNames(in); got != want {
			t.Errorf("ShortenNames(%q) = %q, want %q", in, got, want)
		}
	}
}
