package logs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// TestFollowResumes follows a pod's log through an API server (httptest)
// whose log stream ends twice: each time the stream resumes from the last
// line's second, and the lines it is sent again are not counted twice.
func TestFollowResumes(t *testing.T) {
	base := time.Now().UTC().Truncate(time.Second)
	line := func(i int) string {
		at := base.Add(time.Duration(i) * 300 * time.Millisecond)
		return fmt.Sprintf(`%s {"level":"error","ts":%q,"msg":"Reconciler error","controller":"widget","namespace":"default","name":"w1","error":"boom"}`+"\n",
			at.Format(time.RFC3339Nano), at.Format(time.RFC3339))
	}
	pod := corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: "ctrl-0"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "manager"}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning}}
	var mu sync.Mutex
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/namespaces/demo/pods/ctrl-0":
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(pod)
		case "/api/v1/namespaces/demo/pods/ctrl-0/log":
			mu.Lock()
			n := len(queries)
			queries = append(queries, r.URL.Query().Get("sinceTime"))
			mu.Unlock()
			// Each connection sends lines from the second asked for, as the
			// kubelet does, up to a point, then ends: 0-4, then 3-7, then 6-9.
			from := []int{0, 3, 6}[min(n, 2)]
			to := []int{5, 8, 10}[min(n, 2)]
			for i := from; i < to; i++ {
				_, _ = w.Write([]byte(line(i)))
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cs := kubernetes.NewForConfigOrDie(&rest.Config{Host: srv.URL})

	s := NewStore(Options{Live: true})
	stop, err := s.Follow(context.Background(), StreamConfig{
		Clientset: cs, Target: cluster.Target{Kind: cluster.KindPod, Name: "ctrl-0"}, Namespace: "demo",
		Tunnel: cluster.TunnelOptions{Backoff: time.Millisecond, Max: 10 * time.Millisecond},
	})
	if err != nil {
		t.Fatalf("Follow: %v", err)
	}
	deadline := time.Now().Add(waitFor)
	for {
		mu.Lock()
		n := len(queries)
		mu.Unlock()
		if n >= 4 { // the third stream has been read, and a fourth asked for
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d log requests within %v, want 4", n, waitFor)
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	d, err := s.Key("widget", "default/w1")
	if err != nil {
		t.Fatal(err)
	}
	if d.TotalFailures != 10 {
		t.Errorf("totalFailures = %d, want 10: each line once", d.TotalFailures)
	}
	mu.Lock()
	defer mu.Unlock()
	if got, want := queries[1], base.Add(4*300*time.Millisecond).Format(time.RFC3339); got != want {
		t.Errorf("second stream: sinceTime = %s, want the last line's second %s", got, want)
	}
	first, err := time.Parse(time.RFC3339, queries[0])
	if err != nil || first.Before(base.Add(-time.Hour-time.Second)) || first.After(base.Add(-time.Hour+waitFor)) {
		t.Errorf("first stream: sinceTime = %s, want an hour (DefaultSince) back from %v", queries[0], base)
	}
}

// TestFollowRefused fails at once, naming the pod, when no log can be read.
func TestFollowRefused(t *testing.T) {
	pod := corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: "ctrl-0"},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/v1/namespaces/demo/pods/ctrl-0" {
			_ = json.NewEncoder(w).Encode(pod)
			return
		}
		w.WriteHeader(http.StatusForbidden)
		_ = json.NewEncoder(w).Encode(metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure,
			Reason: metav1.StatusReasonForbidden, Code: http.StatusForbidden, Message: `pods "ctrl-0" is forbidden: cannot get resource "pods/log"`})
	}))
	defer srv.Close()
	s := NewStore(Options{Live: true})
	_, err := s.Follow(context.Background(), StreamConfig{
		Clientset: kubernetes.NewForConfigOrDie(&rest.Config{Host: srv.URL}),
		Target:    cluster.Target{Kind: cluster.KindPod, Name: "ctrl-0"}, Namespace: "demo",
	})
	if err == nil || !strings.Contains(err.Error(), "logs of pod demo/ctrl-0") || !strings.Contains(err.Error(), `"pods/log"`) {
		t.Errorf("err = %v, want one naming the pod and pods/log", err)
	}
}
