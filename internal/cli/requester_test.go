package cli

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
)

func TestRequester(t *testing.T) {
	const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:6443"}
users:
- name: alice@example
- name: bob@example
contexts:
- name: prod
  context: {cluster: c, user: alice@example}
- name: staging
  context: {cluster: c, user: bob@example}
current-context: prod
`
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("USER", "carol")
	tests := []struct {
		name          string
		addr, context string
		user          string
		want          string
	}{
		{"current context's user", "", "", "", "alice@example"},
		{"--context", "", "staging", "", "bob@example"},
		{"--user wins", "", "", "dave", "dave"},
		{"--addr: no kubeconfig involved", "http://127.0.0.1:8082", "", "", "carol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cf := genericclioptions.NewConfigFlags(false)
			cf.KubeConfig, cf.Context, cf.AuthInfoName = &path, &tt.context, &tt.user
			o := newAttachOptions(cf)
			o.addr = tt.addr
			if got := o.requester(); got != tt.want {
				t.Errorf("requester() = %q, want %q", got, tt.want)
			}
		})
	}
}
