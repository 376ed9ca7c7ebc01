package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// kcmLog is kube-controller-manager v1.37.2's own log (the e2e tier's),
// with the replicaset controller failing q/web-7655778b6f, the namespace
// controller "stuck" and the resourcequota controller q/q.
const kcmLog = "../inspector/logs/testdata/wild/kube-controller-manager-e2e.log"

// kcmServer is an API server (httptest) with the kinds kube-controller-
// manager's controllers reconcile, holding the objects named in objects
// (their paths), allowing every patch, and recording the patches.
type kcmServer struct {
	objects map[string]bool
	mu      sync.Mutex
	patched []string
}

func (k *kcmServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	res := func(name, kind string, namespaced bool) metav1.APIResource {
		return metav1.APIResource{Name: name, Kind: kind, Namespaced: namespaced, Verbs: []string{"get", "patch"}}
	}
	switch p := r.URL.Path; {
	case p == "/api":
		_ = enc.Encode(metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"}})
	case p == "/apis":
		_ = enc.Encode(metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}, Groups: []metav1.APIGroup{{
			Name: "apps", Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "apps/v1", Version: "v1"}},
			PreferredVersion: metav1.GroupVersionForDiscovery{GroupVersion: "apps/v1", Version: "v1"}}}})
	case p == "/api/v1":
		_ = enc.Encode(metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList"}, GroupVersion: "v1", APIResources: []metav1.APIResource{
			res("namespaces", "Namespace", false), res("replicationcontrollers", "ReplicationController", true), res("resourcequotas", "ResourceQuota", true)}})
	case p == "/apis/apps/v1":
		_ = enc.Encode(metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList"}, GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
			res("replicasets", "ReplicaSet", true)}})
	case p == "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews":
		body, _ := io.ReadAll(r.Body)
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
		rev, ok := obj.(*authorizationv1.SelfSubjectAccessReview)
		if err != nil || !ok {
			http.Error(w, "bad review", http.StatusBadRequest)
			return
		}
		rev.TypeMeta = metav1.TypeMeta{Kind: "SelfSubjectAccessReview", APIVersion: "authorization.k8s.io/v1"}
		rev.Status.Allowed = true
		_ = enc.Encode(rev)
	case k.objects[p] && (r.Method == http.MethodGet || r.Method == http.MethodPatch):
		if r.Method == http.MethodPatch {
			k.mu.Lock()
			k.patched = append(k.patched, p)
			k.mu.Unlock()
		}
		kind, apiVersion := "ReplicaSet", "apps/v1"
		if strings.HasPrefix(p, "/api/") {
			kind, apiVersion = "Object", "v1"
		}
		_ = enc.Encode(map[string]any{"kind": kind, "apiVersion": apiVersion, "metadata": map[string]any{"name": path.Base(p)}})
	default:
		w.WriteHeader(http.StatusNotFound)
		_ = enc.Encode(metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure, Reason: metav1.StatusReasonNotFound, Code: 404})
	}
}

// TestKickFromKCMLog: on kube-controller-manager's log, kick finds each
// key's controller among those that have the key (not "4 controllers:
// name one with --controller"), and its kind from kcm's table: replica_
// set.go's lines serve the ReplicaSet and the ReplicationController
// controllers alike, so the cluster is asked which exists; both existing
// is said, with the two --kind to choose from. A controller that an
// annotation does not make retry (the resourcequota controller) is
// refused, saying what does.
func TestKickFromKCMLog(t *testing.T) {
	const (
		rs   = "/apis/apps/v1/namespaces/q/replicasets/web-7655778b6f"
		rc   = "/api/v1/namespaces/q/replicationcontrollers/web-7655778b6f"
		ns   = "/api/v1/namespaces/stuck"
		quot = "/api/v1/namespaces/q/resourcequotas/q"
	)
	for _, tc := range []struct {
		name    string
		objects []string
		keys    []string
		patched []string
		err     string
		// untold reads the log without its replicaset controller's
		// "Starting controller" line, the one line that tells its key is
		// a ReplicaSet's: the cluster must then be asked.
		untold bool
	}{
		{"a ReplicaSet", []string{rs, ns, quot}, []string{"q/web-7655778b6f"}, []string{rs}, "", false},
		{"keys of two controllers", []string{rs, ns}, []string{"q/web-7655778b6f", "stuck"}, []string{rs, ns}, "", false},
		{"a ReplicationController", []string{rc}, []string{"q/web-7655778b6f"}, []string{rc}, "", true},
		{"both", []string{rs, rc}, []string{"q/web-7655778b6f"}, nil,
			"key q/web-7655778b6f of replicaset or replicationcontroller: the cluster has a ReplicaSet.apps and a ReplicationController so named, and the log does not say which failed: " +
				"give --kind ReplicaSet.apps or --kind ReplicationController", true},
		{"neither", nil, []string{"q/web-7655778b6f"}, nil,
			"key q/web-7655778b6f of replicaset or replicationcontroller: the cluster has no ReplicaSet.apps or ReplicationController so named (deleted since?)", true},
		{"told by the log", []string{rc}, []string{"q/web-7655778b6f"}, nil,
			"kick replicasets.apps q/web-7655778b6f", false},
		{"the resourcequota controller", []string{quot}, []string{"q/q"}, nil,
			"kube-controller-manager's resourcequota-controller would not retry q/q sooner for a kick: it enqueues a ResourceQuota on a change to spec.hard only", false},
		{"a key no controller has", []string{rs}, []string{"q/nothing"}, nil, `no controller tracks key "q/nothing"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir()) // kubectl's discovery cache
			ks := &kcmServer{objects: map[string]bool{}}
			for _, o := range tc.objects {
				ks.objects[o] = true
			}
			srv := httptest.NewServer(ks)
			defer srv.Close()
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			cmd := NewKickCommand(serverFlags(t, srv.URL), streams)
			log := kcmLog
			if tc.untold {
				log = untoldKCMLog(t)
			}
			cmd.SetArgs(append([]string{"--from-logs", log}, tc.keys...))
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			err := cmd.Execute()
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("kick %v: %v", tc.keys, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("kick %v: error %v, want it to contain %q", tc.keys, err, tc.err)
			}
			if strings.Join(ks.patched, " ") != strings.Join(tc.patched, " ") {
				t.Errorf("kick %v patched %v; want %v (stdout %q)", tc.keys, ks.patched, tc.patched, out)
			}
		})
	}
}

// untoldKCMLog is kcmLog without the line that tells replica_set.go's keys
// are the ReplicaSet controller's (kube-controller-manager's own
// `"Starting controller" name="replicaset"`), as a log cut after start-up is.
func untoldKCMLog(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(kcmLog)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(raw), "\n") {
		if !strings.Contains(l, `"Starting controller" name="replicaset"`) {
			kept = append(kept, l)
		}
	}
	if strings.Join(kept, "") == string(raw) {
		t.Fatal("the fixture has no replicaset controller's Starting line to leave out")
	}
	f := filepath.Join(t.TempDir(), "kcm-untold.log")
	if err := os.WriteFile(f, []byte(strings.Join(kept, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// serverFlags are kubectl's flags for the API server at url, with an empty
// kubeconfig: nothing of the machine's.
func serverFlags(t *testing.T, url string) *genericclioptions.ConfigFlags {
	t.Helper()
	kubeconfig := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cf := genericclioptions.NewConfigFlags(false)
	*cf.KubeConfig, *cf.APIServer = kubeconfig, url
	return cf
}

// TestMCPKickFromKCMLog: the MCP server's kick finds the kind as the CLI's
// does: on kube-controller-manager's log, without a controller named, the
// ReplicaSet behind q/web-7655778b6f is patched.
func TestMCPKickFromKCMLog(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // kubectl's discovery cache
	ks := &kcmServer{objects: map[string]bool{"/apis/apps/v1/namespaces/q/replicasets/web-7655778b6f": true}}
	srv := httptest.NewServer(ks)
	defer srv.Close()
	kubeconfig := kubeconfigFile(t, srv.URL)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cs, served := serveMCP(ctx, t, io.Discard, "--from-logs", kcmLog, "--kubeconfig", kubeconfig, "--allow-write")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "kick", Arguments: map[string]any{"keys": []string{"q/web-7655778b6f"}}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if res.IsError || len(ks.patched) != 1 {
		t.Errorf("kick q/web-7655778b6f through MCP: %s; patched %v, want the ReplicaSet", b, ks.patched)
	}
	cs.Close()
	cancel()
	<-served
}

// TestKickToolSaysItsInputs: kick through the MCP server names the tool's
// input (controller) and the command for what the tool cannot take
// (--kind), in its own words from the start: before, the CLI's message was
// rewritten by replacing "--controller" in its text.
func TestKickToolSaysItsInputs(t *testing.T) {
	srv := httptest.NewServer(&kcmServer{})
	defer srv.Close()
	kubeconfig := kubeconfigFile(t, srv.URL)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cs, served := serveMCP(ctx, t, io.Discard, "--from-logs", kcmLog, "--kubeconfig", kubeconfig, "--allow-write")
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"keys": []string{"q/nothing"}}, `no controller tracks key \"q/nothing\"`},
		{map[string]any{"keys": []string{"q/nothing"}}, `or kick them with kubectl backoff kick --kind KIND.GROUP`},
		{map[string]any{"keys": []string{"q/q"}, "controller": "nope"}, `controller \"nope\": not among`},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "kick", Arguments: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		if !res.IsError || !strings.Contains(string(b), tc.want) || strings.Contains(string(b), "--controller") {
			t.Errorf("kick %v: %s\nwant a tool error saying %s", tc.args, b, tc.want)
		}
	}
	cs.Close()
	cancel()
	<-served
}

// TestKickNotFoundSaysSo: an API server that answers a patch 404 with a
// Status that has no message (this double does, as an aggregated API
// server may) left kick's error empty after its colon ("kick
// replicasets.apps q/nothere: "). It says what the 404 means instead.
func TestKickNotFoundSaysSo(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // kubectl's discovery cache
	srv := httptest.NewServer(&kcmServer{objects: map[string]bool{}})
	defer srv.Close()
	cmd := NewKickCommand(serverFlags(t, srv.URL), genericiooptions.NewTestIOStreamsDiscard())
	cmd.SetArgs([]string{"--kind", "ReplicaSet.apps", "q/nothere"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.Execute()
	want := "kick replicasets.apps q/nothere: the API server has no replicasets.apps q/nothere (404 NotFound): deleted since it failed, or named wrong?"
	if err == nil || err.Error() != want {
		t.Errorf("kick a missing object: %v\nwant %s", err, want)
	}
}

// kubeconfigFile writes a kubeconfig whose one context is a cluster at
// server, with no user, and returns its path.
func kubeconfigFile(t *testing.T, server string) string {
	t.Helper()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "`+server+`"}}]
contexts: [{name: c, context: {cluster: c}}]
current-context: c
`), 0o600); err != nil {
		t.Fatal(err)
	}
	return kubeconfig
}
