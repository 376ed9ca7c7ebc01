package cluster_test

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

func TestParseTarget(t *testing.T) {
	tests := []struct {
		arg, selector string
		want          cluster.Target
		wantErr       string // a substring of the error; "" for none
	}{
		{arg: "", want: cluster.Target{}},
		{arg: "ctrl-0", want: cluster.Target{Kind: cluster.KindPod, Name: "ctrl-0"}},
		{arg: "pod/ctrl-0", want: cluster.Target{Kind: cluster.KindPod, Name: "ctrl-0"}},
		{arg: "po/ctrl-0", want: cluster.Target{Kind: cluster.KindPod, Name: "ctrl-0"}},
		{arg: "pods/ctrl-0", want: cluster.Target{Kind: cluster.KindPod, Name: "ctrl-0"}},
		{arg: "deploy/ctrl", want: cluster.Target{Kind: cluster.KindDeployment, Name: "ctrl"}},
		{arg: "deployment/ctrl", want: cluster.Target{Kind: cluster.KindDeployment, Name: "ctrl"}},
		{arg: "deployments/ctrl", want: cluster.Target{Kind: cluster.KindDeployment, Name: "ctrl"}},
		{arg: "Deploy/ctrl", want: cluster.Target{Kind: cluster.KindDeployment, Name: "ctrl"}},
		{arg: "sts/ctrl", want: cluster.Target{Kind: cluster.KindStatefulSet, Name: "ctrl"}},
		{arg: "statefulset/ctrl", want: cluster.Target{Kind: cluster.KindStatefulSet, Name: "ctrl"}},
		{arg: "rs/ctrl-5d8f", want: cluster.Target{Kind: cluster.KindReplicaSet, Name: "ctrl-5d8f"}},
		{arg: "replicasets/ctrl-5d8f", want: cluster.Target{Kind: cluster.KindReplicaSet, Name: "ctrl-5d8f"}},
		{selector: "app=ctrl,tier!=web", want: cluster.Target{Selector: "app=ctrl,tier!=web"}},
		{arg: "svc/ctrl", wantErr: `target "svc/ctrl": unknown kind "svc"`},
		{arg: "deploy/", wantErr: `target "deploy/": want KIND/NAME`},
		{arg: "deploy/a/b", wantErr: `target "deploy/a/b": want KIND/NAME`},
		{arg: "deploy/ctrl", selector: "app=ctrl", wantErr: "give a target or a label selector, not both"},
		{selector: "app in (", wantErr: `label selector "app in ("`},
	}
	for _, tt := range tests {
		got, err := cluster.ParseTarget(tt.arg, tt.selector)
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseTarget(%q, %q) error = %v, want one containing %q", tt.arg, tt.selector, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("ParseTarget(%q, %q): %v", tt.arg, tt.selector, err)
		case got != tt.want:
			t.Errorf("ParseTarget(%q, %q) = %+v, want %+v", tt.arg, tt.selector, got, tt.want)
		}
	}
}

func TestTargetString(t *testing.T) {
	tests := []struct {
		t      cluster.Target
		want   string
		isZero bool
	}{
		{t: cluster.Target{}, want: "(discovered)", isZero: true},
		{t: cluster.Target{Kind: cluster.KindDeployment, Name: "ctrl"}, want: "deployment/ctrl"},
		{t: cluster.Target{Selector: "app=ctrl"}, want: "-l app=ctrl"},
	}
	for _, tt := range tests {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.t, got, tt.want)
		}
		if got := tt.t.IsZero(); got != tt.isZero {
			t.Errorf("%+v.IsZero() = %v, want %v", tt.t, got, tt.isZero)
		}
	}
}

func TestPortSpecValidate(t *testing.T) {
	tests := []struct {
		spec    cluster.PortSpec
		wantErr string
	}{
		{spec: ""},
		{spec: "8082"},
		{spec: "1"},
		{spec: "65535"},
		{spec: "backoff"},
		{spec: "0", wantErr: "port 0: out of range 1-65535"},
		{spec: "70000", wantErr: "port 70000: out of range 1-65535"},
		{spec: "-1", wantErr: "port -1: out of range"},
		{spec: "a-very-long-port-name", wantErr: `port "a-very-long-port-name": a port name has at most 15 characters`},
	}
	for _, tt := range tests {
		err := tt.spec.Validate()
		if tt.wantErr == "" {
			if err != nil {
				t.Errorf("PortSpec(%q).Validate() = %v, want nil", tt.spec, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("PortSpec(%q).Validate() = %v, want an error containing %q", tt.spec, err, tt.wantErr)
		}
	}
}
