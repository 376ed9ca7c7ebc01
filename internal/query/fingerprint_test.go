package query

import "testing"

func TestFingerprint(t *testing.T) {
	tests := []struct{ in, want string }{
		{"dial tcp 10.0.0.7:443: connect: connection refused", "dial tcp …: connect: connection refused"},
		{"dial tcp [fd00::1]:443: i/o timeout", "dial tcp …: i/o timeout"},
		{`configmaps "outage-00012" not found`, `configmaps "…" not found`},
		{"sync demo/outage-00012: 503 Service Unavailable", "sync demo/outage-…: 503 Service Unavailable"},
		{"503 Service Unavailable", "503 Service Unavailable"},
		{"took 503 ms", "took … ms"},
		{"request 9f86d081-884c-4d63-a5f1-5e2b0b3a2f11 failed after 3 attempts", "request … failed after … attempts"},
		{"object 4f2a9c0d1e7b has changed", "object … has changed"},
		{"object 0x4f2a9c0d1e7b has changed", "object … has changed"},
		{"deadbeef and accepted stay", "deadbeef and accepted stay"},
		{"timeout after 1.5s", "timeout after …s"},
		{"Operation cannot be fulfilled on widgets.example.com \"w-7\": the object has been modified; resourceVersion 1234",
			"Operation cannot be fulfilled on widgets.example.com \"…\": the object has been modified; resourceVersion …"},
		{"at 10.0.0.7 and 10.0.0.8", "at … and …"},
		{"retry 1/5", "retry …"}, // folds one character apart merge
		{"unterminated \"quote 12", "unterminated \"quote …"},
		// An API version is kept: "v…" read as a cut, and v1 against v2 is a cause.
		{"GET https://inventory.demo/v1/items/outage-00003: 503 Service Unavailable", "GET https://inventory.demo/v1/items/outage-…: 503 Service Unavailable"},
		{"no matches for kind Widget in version example.com/v1beta2", "no matches for kind Widget in version example.com/v1beta2"},
		{"conversion webhook for v2alpha1 failed", "conversion webhook for v2alpha1 failed"},
		{"v1beta disk v12x", "v…beta disk v…x"}, // not versions: folded as numbers
		{"no numbers here", "no numbers here"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Fingerprint(tt.in); got != tt.want {
			t.Errorf("Fingerprint(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func BenchmarkFingerprint(b *testing.B) {
	msg := `Operation cannot be fulfilled on widgets.example.com "w-7": dial tcp 10.0.0.7:443: connect: connection refused`
	b.ReportAllocs()
	for b.Loop() {
		Fingerprint(msg)
	}
}

// TestFingerprintFoldsTheObjectsName: three keys failing on one outage, each
// error naming its own object unquoted, are one group, as they are when the
// names are quoted.
func TestFingerprintFoldsTheObjectsName(t *testing.T) {
	for _, set := range [][]ErrorKey{
		{
			{Key: "widgets/down-1", Message: "sync down-1: eu region unavailable"},
			{Key: "widgets/flaky", Message: "sync flaky: eu region unavailable"},
			{Key: "widgets/api-eu", Message: "sync api-eu: eu region unavailable"},
		},
		{
			{Key: "widgets/down-1", Message: `sync "down-1": eu region unavailable`},
			{Key: "widgets/flaky", Message: `sync "flaky": eu region unavailable`},
			{Key: "widgets/api-eu", Message: `sync "api-eu": eu region unavailable`},
		},
		{
			{Key: "widgets/down-1", Message: "sync widgets/down-1: eu region unavailable"},
			{Key: "widgets/flaky", Message: "sync widgets/flaky: eu region unavailable"},
		},
	} {
		g := NewGrouper([]string{"configmap"})
		for i := range set {
			g.Add(0, &set[i])
		}
		if n := len(g.groups); n != 1 {
			var fps []string
			for _, a := range g.groups {
				fps = append(fps, a.fingerprint)
			}
			t.Errorf("%q: %d groups %q, want one", set[0].Message, n, fps)
		}
	}
	for _, tt := range []struct{ msg, key, want string }{
		{"sync down-1: eu region unavailable", "widgets/down-1", "sync …: eu region unavailable"},
		{"down-10 is not down-1", "ns/down-1", "down-10 is not …"},
		{"depends on widgets/down-1", "widgets/down-1", "depends on …"},
		{"no name here", "ns/down-1", "no name here"},
	} {
		if got := maskName(tt.msg, tt.key); got != tt.want {
			t.Errorf("maskName(%q, %q) = %q, want %q", tt.msg, tt.key, got, tt.want)
		}
	}
}
