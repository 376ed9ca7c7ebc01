package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

func TestTopValidate(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		flags   map[string]string
		wantErr string
	}{
		{name: "defaults", args: nil},
		{name: "target", args: []string{"deploy/ctrl"}},
		{name: "addr", flags: map[string]string{"addr": "127.0.0.1:8082", "refresh": "250ms"}},
		{name: "refresh zero", flags: map[string]string{"refresh": "0s"}, wantErr: "--refresh 0s: must be positive"},
		{name: "refresh negative", flags: map[string]string{"refresh": "-1s"}, wantErr: "--refresh -1s: must be positive"},
		{name: "refresh too fast", flags: map[string]string{"refresh": "10ms"}, wantErr: "--refresh 10ms: must be at least 100ms"},
		{name: "bad state", flags: map[string]string{"state": "sleeping"}, wantErr: `--state: "sleeping"`},
		{name: "addr and --scheme", flags: map[string]string{"addr": "127.0.0.1:8082", "scheme": "https"}, wantErr: "--scheme with --addr: --addr is the whole address, so say it there: --addr https://127.0.0.1:8082"},
		{name: "addr and --path", flags: map[string]string{"addr": "127.0.0.1:8082", "path": "/nope/"}, wantErr: "--path with --addr: --addr is the whole address, so say it there: --addr http://127.0.0.1:8082/nope/"},
		{name: "addr and the same --scheme and --path", flags: map[string]string{"addr": "https://127.0.0.1:8082/x/", "scheme": "https", "path": "/x"}},
		{name: "addr and target", args: []string{"deploy/ctrl"}, flags: map[string]string{"addr": "127.0.0.1:8082"}, wantErr: "top takes at most a TARGET"},
		{name: "extra arg", args: []string{"deploy/ctrl", "default/w1"}, wantErr: "accepts at most 1 arg"},
		// Complete resolves kubeconfig; Validate says there is none, after the flags' own errors.
		{name: "no cluster", args: []string{"deploy/ctrl"}, flags: map[string]string{"server": ""}, wantErr: "no cluster configured"},
		{name: "no cluster, bad flag first", flags: map[string]string{"server": "", "state": "sleeping"}, wantErr: `--state: "sleeping"`},
		{name: "file with a target", args: []string{"deploy/ctrl"}, flags: map[string]string{"file": "snap.json"}, wantErr: "--file snap.json"},
		{name: "file missing", flags: map[string]string{"file": "nope.json"}, wantErr: "--file: open nope.json"},
		{name: "for", flags: map[string]string{"for": "certificates", "refresh": "2s"}},
		{name: "for with a target", args: []string{"deploy/ctrl"}, flags: map[string]string{"for": "certificates"}, wantErr: "--for certificates lists the objects of a kind, not a controller's keys: drop the TARGET deploy/ctrl"},
		{name: "for one object", flags: map[string]string{"for": "certificate/web-tls"}, wantErr: "for one object run kubectl backoff why certificate/web-tls"},
		// --addr and --from-logs FILE are read as why TYPE reads them.
		{name: "for with addr", flags: map[string]string{"for": "configmaps", "addr": "127.0.0.1:8082"}},
		{name: "for with addr and --scheme", flags: map[string]string{"for": "configmaps", "addr": "127.0.0.1:8082", "scheme": "https"}, wantErr: "--scheme with --addr"},
		{name: "for with a log file", flags: map[string]string{"for": "configmaps", "from-logs": "op.log"}},
		{name: "for with --from-logs FILE, spaced", args: []string{"op.log"}, flags: map[string]string{"for": "configmaps", "from-logs": fromTarget}},
		{name: "for with --from-logs alone", flags: map[string]string{"for": "configmaps", "from-logs": fromTarget}, wantErr: "give it as --from-logs FILE"},
		{name: "for with --from-logs -", flags: map[string]string{"for": "configmaps", "from-logs": "-"}, wantErr: "give a file, not -"},
		{name: "for with --explain-lines", flags: map[string]string{"for": "configmaps", "from-logs": "op.log", "explain-lines": "true"}, wantErr: "drop --explain-lines"},
		{name: "for with --dialect", flags: map[string]string{"for": "configmaps", "from-logs": "op.log", "dialect": "d.yaml"}, wantErr: "drop --dialect"},
		{name: "for with a snapshot", flags: map[string]string{"for": "configmaps", "file": "snap.json"}, wantErr: "drop --file"},
		{name: "for with controller", flags: map[string]string{"for": "certificates", "controller": "x"}, wantErr: "drop --controller"},
		{name: "for with state", flags: map[string]string{"for": "certificates", "state": "backoff"}, wantErr: "drop --state"},
		// --controller-log as why TYPE takes it (a tenant's kube-controller-manager log).
		{name: "for with a log file and --controller-log", flags: map[string]string{"for": "deployments", "from-logs": "kcm.log", "controller-log": "kube-controller-manager"}},
		{name: "for with --controller-log, no log", flags: map[string]string{"for": "deployments", "controller-log": "kube-controller-manager"}, wantErr: "give --from-logs FILE too"},
		{name: "--controller-log without --for", flags: map[string]string{"from-logs": "kcm.log", "controller-log": "kube-controller-manager"}, wantErr: "give --for TYPE"},
		{name: "for, refresh still checked", flags: map[string]string{"for": "certificates", "refresh": "0s"}, wantErr: "--refresh 0s: must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := NewTopCommand(genericclioptions.NewConfigFlags(false), genericiooptions.NewTestIOStreamsDiscard())
			for k, v := range tt.flags {
				if k == "server" {
					continue // kubeconfig's, not top's
				}
				if err := cmd.Flags().Set(k, v); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if err = cmd.Args(cmd, tt.args); err == nil {
				o := topOptionsOf(t, cmd.Flags().Lookup("refresh").Value.String(), tt.flags)
				if err = o.Complete(tt.args); err == nil {
					err = o.Validate()
				}
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// topOptionsOf builds options as the flags set them.
func topOptionsOf(t *testing.T, refresh string, flags map[string]string) *TopOptions {
	t.Helper()
	d, err := time.ParseDuration(refresh)
	if err != nil {
		t.Fatal(err)
	}
	cf := genericclioptions.NewConfigFlags(false)
	*cf.KubeConfig = filepath.Join(t.TempDir(), "config") // empty, not the machine's
	if err := os.WriteFile(*cf.KubeConfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	*cf.APIServer = "https://127.0.0.1:6443" // a cluster, never dialled by Validate
	if server, ok := flags["server"]; ok {
		*cf.APIServer = server
	}
	o := &TopOptions{attachOptions: newAttachOptions(cf), Refresh: d}
	o.addr, o.file = flags["addr"], flags["file"]
	o.For, o.Controller = flags["for"], flags["controller"]
	if s, ok := flags["state"]; ok {
		o.States = strings.Split(s, ",")
	}
	if v, ok := flags["scheme"]; ok {
		o.scheme = v
	}
	if v, ok := flags["path"]; ok {
		o.prefix = v
	}
	o.fromLogs.source, o.controllerLog = flags["from-logs"], flags["controller-log"]
	o.fromLogs.explainLines = flags["explain-lines"] == "true"
	if v, ok := flags["dialect"]; ok {
		o.fromLogs.dialectFiles = []string{v}
	}
	return o
}

// Several instrumented pods and no TARGET: top hands them to the UI's
// picker, printing nothing and failing nothing, where get lists and fails.
func TestTopOpenOrPickReturnsPods(t *testing.T) {
	pod := func(name string) corev1.Pod {
		return corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: name},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Ports: []corev1.ContainerPort{{Name: "backoff", ContainerPort: 8082}}}}},
			Status:     corev1.PodStatus{Phase: corev1.PodRunning},
		}
	}
	apiServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/namespaces/demo/pods" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}, Items: []corev1.Pod{pod("ctrl-0"), pod("ctrl-1")}})
	}))
	defer apiServer.Close()
	kubeconfig := filepath.Join(t.TempDir(), "config") // empty: the flags say it all
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cf := genericclioptions.NewConfigFlags(false)
	*cf.KubeConfig, *cf.APIServer, *cf.Namespace = kubeconfig, apiServer.URL, "demo"

	for _, tc := range []struct {
		name    string
		open    func(o *TopOptions, out *bytes.Buffer) ([]cluster.Pod, error)
		wantErr string
	}{
		{name: "top", open: func(o *TopOptions, _ *bytes.Buffer) ([]cluster.Pod, error) {
			_, _, pods, err := o.openOrPick(t.Context())
			return pods, err
		}},
		{name: "get", wantErr: "2 instrumented pods found: name one as TARGET", open: func(o *TopOptions, out *bytes.Buffer) ([]cluster.Pod, error) {
			_, _, err := o.open(t.Context(), out)
			return nil, err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &TopOptions{attachOptions: newAttachOptions(cf), Refresh: time.Second}
			if err := o.Complete(nil); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			pods, err := tc.open(o, &out)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(out.String(), "ctrl-1") {
					t.Errorf("error %v, output %q: want the pods listed and %q", err, out.String(), tc.wantErr)
				}
				return
			}
			if err != nil || out.Len() != 0 {
				t.Fatalf("error %v, output %q: want neither", err, out.String())
			}
			if e, a := "demo/ctrl-0 demo/ctrl-1", fmt.Sprint(pods[0], " ", pods[1]); len(pods) != 2 || e != a {
				t.Errorf("pods: want %s, got %v", e, pods)
			}
		})
	}
}

// Without a terminal, top says what to use instead, before attaching.
func TestTopNeedsATerminal(t *testing.T) {
	cmd := NewTopCommand(genericclioptions.NewConfigFlags(false), genericiooptions.NewTestIOStreamsDiscard())
	cmd.SetArgs([]string{"--addr", "127.0.0.1:1"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.Execute()
	if e := "top needs a terminal; use `kubectl backoff get`"; err == nil || err.Error() != e {
		t.Errorf("error %v, want %q", err, e)
	}
}

// What the endpoint refuses, top refuses before its UI opens, with the
// very message get prints for the same flags.
func TestTopRefusesWhatGetRefuses(t *testing.T) {
	reg := instrument.NewRegistry()
	log := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	defer srv.Close()
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg})
	_ = p.Track("default/w1", func() error { return errors.New("connection refused") })

	for _, tt := range []struct{ controller, filter string }{
		{controller: "nope"},
		{filter: "~("},
		{controller: "widget", filter: "refused"}, // accepted: both nil
	} {
		t.Run(tt.controller+tt.filter, func(t *testing.T) {
			get := NewGetCommand(genericclioptions.NewConfigFlags(false), genericiooptions.NewTestIOStreamsDiscard())
			get.SetArgs([]string{"--addr", srv.URL, "--controller", tt.controller, "-q", tt.filter})
			get.SilenceErrors, get.SilenceUsage = true, true
			getErr := get.Execute()

			o := &TopOptions{attachOptions: newAttachOptions(genericclioptions.NewConfigFlags(false)), Refresh: time.Second, Controller: tt.controller, Filter: tt.filter}
			o.addr = srv.URL
			if err := o.Complete(nil); err != nil {
				t.Fatal(err)
			}
			if err := o.Validate(); err != nil {
				// Refused before attaching, with get's words: the flag is
				// checked by the engine the endpoint parses it with.
				if fmt.Sprint(getErr) != fmt.Sprint(err) || tt.controller == "widget" {
					t.Errorf("top: %v\nget: %v\nwant the same", err, getErr)
				}
				return
			}
			s, _, _, err := o.openOrPick(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			topErr := o.preflight(t.Context(), s)
			if fmt.Sprint(getErr) != fmt.Sprint(topErr) {
				t.Errorf("top: %v\nget: %v\nwant the same", topErr, getErr)
			}
			if (tt.controller == "widget") != (topErr == nil) {
				t.Errorf("top: %v; want an error only for a bad flag", topErr)
			}
		})
	}
}

// top --for without a terminal points at the list `why TYPE` prints.
func TestTopForNeedsATerminal(t *testing.T) {
	cmd := NewTopCommand(genericclioptions.NewConfigFlags(false), genericiooptions.NewTestIOStreamsDiscard())
	cmd.SetArgs([]string{"--for", "certificates", "-A"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.Execute()
	if e := "top needs a terminal; use `kubectl backoff why certificates -A` (the same list, printed once)"; err == nil || err.Error() != e {
		t.Errorf("error %v, want %q", err, e)
	}
}

// TestTopForControllerLog: top --for TYPE --from-logs FILE --controller-log
// NAME reads the log as why TYPE does with the same flags: whose log it is
// reaches the list's reads.
func TestTopForControllerLog(t *testing.T) {
	o := topOptionsOf(t, "1s", map[string]string{"for": "deployments", "from-logs": "kcm.log", "controller-log": "kube-controller-manager"})
	if w := o.forWhy(); w.ControllerLog != "kube-controller-manager" || w.FromLogs != "kcm.log" {
		t.Errorf("why options --controller-log %q --from-logs %q; want kube-controller-manager, kcm.log", w.ControllerLog, w.FromLogs)
	}
}
