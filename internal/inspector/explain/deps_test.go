package explain_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoTransport keeps this package what it promises to be: data in,
// words out. It must not reach a transport — the inspector package (the
// session, its port-forwards and clients) or client-go (rest,
// portforward, the clientsets) — directly or through another package, nor
// open connections itself (net/http, net). net/http is checked among the
// direct imports only: the wire types' metav1.Duration links it through
// apimachinery, and no code here calls it.
func TestNoTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const self = "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	direct := goList(t, "-f", `{{join .Imports "\n"}}`, ".")
	for _, p := range direct {
		if p == "net" || p == "net/http" {
			t.Errorf("%s imports %s: it explains data it is given; the inspector package does the I/O", self, p)
		}
	}
	var transport []string
	for _, p := range goList(t, "-deps", ".") {
		if p == "github.com/kubectl-backoff/kubectl-backoff/inspector" || strings.HasPrefix(p, "k8s.io/client-go/") {
			transport = append(transport, p)
		}
	}
	if len(transport) > 0 {
		t.Errorf("%s depends on a transport (%s): move what it needs here, or the code that needs it to the inspector package",
			self, strings.Join(transport, ", "))
	}
}

// goList runs go list with args and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.Fields(string(out))
}
