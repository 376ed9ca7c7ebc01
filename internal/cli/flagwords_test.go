package cli

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// TestNoPodsHint: the library says where it found no instrumented pod; the
// command adds what to do with its flags (a TARGET, -A, --from-logs, or
// --addr for a controller run with go run), and leaves out -A when -A was
// given.
func TestNoPodsHint(t *testing.T) {
	for _, all := range []bool{false, true} {
		_, err := cluster.Resolve(context.Background(), fake.NewClientset(), cluster.Target{}, "empty", all, "")
		got := inFlags(err).Error()
		where, target := `in namespace "empty"`, "give a TARGET such as deploy/NAME, or -A for all namespaces; "
		if all {
			where, target = "in any namespace", "give a TARGET such as deploy/NAME; "
		}
		want := `no instrumented pods ` + where + `: looked for a container port named "backoff" (` + target +
			"for a controller without the instrument, add --from-logs to read its logs; " +
			"for one running outside the cluster (go run), --addr 127.0.0.1:8082, its endpoint's address)"
		if got != want {
			t.Errorf("-A %v:\n got %s\nwant %s", all, got, want)
		}
	}
}

// TestPortNamedAsFlag: a port name no pod has is said under --port, the
// flag the user typed it with; the library says "port".
func TestPortNamedAsFlag(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "ctrl-0"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}}
	_, err := cluster.Resolve(context.Background(), fake.NewClientset(pod), cluster.Target{Kind: cluster.KindPod, Name: "ctrl-0"}, "ops", false, "metrics")
	if want := `port "metrics": pod ops/ctrl-0 has no container port of that name`; err == nil || err.Error() != want {
		t.Fatalf("library: %v, want %q", err, want)
	}
	got := inFlags(err).Error()
	if want := `--port "metrics": pod ops/ctrl-0 has no container port of that name`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := cluster.ParseTarget("", "app in ("); !strings.HasPrefix(inFlags(err).Error(), `-l/--selector "app in (": `) {
		t.Errorf("selector: %v", inFlags(err))
	}
}

// TestGuessedPortSaysFromLogs: a pod with no port named backoff refusing
// the port tried is said as such, with --from-logs for a controller without
// the instrument (the library's GuessedPortError names no flag). Before,
// the refusal hid the guess behind "(--port)".
func TestGuessedPortSaysFromLogs(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, dial := net.Dial("tcp", addr)
	pod := cluster.Pod{Namespace: "ops", Name: "ctrl-0", Port: cluster.DefaultPort, PortGuessed: true}
	err = &url.Error{Op: "Get", URL: "http://localhost/debug/backoff/v1/controllers", Err: &inspector.GuessedPortError{Pod: pod, Err: dial}}
	got := (&attachOptions{}).explainError(err).Error()
	want := "cannot connect to " + addr + `: connection refused; pod ops/ctrl-0 has no container port named "backoff", so port 8082 was tried: ` +
		"is the controller instrumented? For a controller without the instrument, add --from-logs to read its logs"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// The demo says a refused option in its fields' words; the command says
// each under its flag, the joined ones too, and for a busy --listen the
// flag's value that avoids it.
func TestDemoOptionsSaidAsFlags(t *testing.T) {
	// What demo.Start returns for a busy address (demo's TestListenOnABusyAddress).
	busyErr := &demo.OptionError{Field: "Listen", Value: "127.0.0.1:8082", Err: os.NewSyscallError("bind", syscall.EADDRINUSE)}

	both := demo.DefaultOptions()
	both.Keys, both.Speed, both.Kubeconfig, both.InCluster = 0, 0, "kc", true
	for _, c := range []struct {
		err  error
		want string
	}{
		{both.Validate(), "--keys must be between 1 and 100000, got 0\n--speed must be greater than 0 and at most 10000, got 0\n--kubeconfig and --in-cluster are mutually exclusive"},
		{&demo.OptionError{Field: "InCluster", Err: errors.New("not in a pod")}, "--in-cluster: not in a pod"},
		{busyErr, "--listen 127.0.0.1:8082: bind: address already in use: is another demo running? Stop it, or let the system pick a free port: --listen 127.0.0.1:0"},
	} {
		got := inFlags(c.err)
		if got == nil || got.Error() != c.want {
			t.Errorf("inFlags(%v) =\n%v\nwant\n%s", c.err, got, c.want)
		}
	}
	if !errors.Is(inFlags(busyErr), syscall.EADDRINUSE) {
		t.Errorf("the busy address said as a flag lost its cause")
	}
}
