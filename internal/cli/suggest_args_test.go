package cli

import (
	"testing"

	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// TestAttachArgs: the commands a diagnosis suggests carry how the user
// attached, as they typed it: --addr, or the TARGET / -l with kubectl's
// -n, --context and --kubeconfig and the port flags, quoted for the shell.
// The flags are parsed as the root and a command parse them.
func TestAttachArgs(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--addr", "127.0.0.1:8082"}, "--addr 127.0.0.1:8082"},
		{[]string{"deploy/ctrl", "-n", "flux-system"}, "deployment/ctrl -n flux-system"},
		{[]string{"-l", "app in (a,b)", "--context", "prod"}, "-l 'app in (a,b)' --context prod"},
		{[]string{"pod/ctrl-0", "--kubeconfig", "/tmp/k c", "--port", "metrics", "--scheme", "https", "--path", "/dbg/"},
			"pod/ctrl-0 --kubeconfig '/tmp/k c' --port metrics --scheme https --path /dbg/"},
		{[]string{"-A"}, "-A"},
		{nil, ""},
	} {
		cf := genericclioptions.NewConfigFlags(true)
		fs := pflag.NewFlagSet("describe", pflag.ContinueOnError)
		cf.AddFlags(fs)
		o := newAttachOptions(cf)
		o.addFlags(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if _, err := o.completeTarget(fs.Args()); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if got := o.attachArgs(); got != tt.want {
			t.Errorf("%v: attachArgs() = %q, want %q", tt.args, got, tt.want)
		}
	}
}
