package cli

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

func TestDemoFlagValidation(t *testing.T) {
	tests := []struct {
		args     []string
		wantFlag string
	}{
		{[]string{"--keys", "-1"}, "--keys"},
		{[]string{"--keys", "0"}, "--keys"},
		{[]string{"--keys", "100001"}, "--keys"},
		{[]string{"--listen", "nonsense"}, "--listen"},
		{[]string{"--listen", ""}, "--listen"},
		{[]string{"--speed", "0"}, "--speed"},
		{[]string{"--speed", "-2"}, "--speed"},
		{[]string{"--kubeconfig", "kc", "--in-cluster"}, "--kubeconfig"},
		{[]string{"--keys", "many"}, "--keys"}, // rejected by the flag parser
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cmd := NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
			cmd.SetArgs(append([]string{"demo"}, tt.args...))
			err := cmd.Execute()
			if err == nil {
				t.Fatalf("demo %v: no error, want one naming %s", tt.args, tt.wantFlag)
			}
			if !strings.Contains(err.Error(), tt.wantFlag) {
				t.Errorf("demo %v: error %q does not name %s", tt.args, err, tt.wantFlag)
			}
		})
	}
}

func TestDemoOptionsComplete(t *testing.T) {
	o := NewDemoOptions(nil, genericiooptions.NewTestIOStreamsDiscard())
	o.Keys, o.Speed, o.Seed, o.Listen = 10, 50, 7, "127.0.0.1:0"
	if err := o.Complete(nil, nil); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if err := o.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if e, a := 10, o.demo.Keys; e != a {
		t.Errorf("Keys = %d, want %d", a, e)
	}
	if e, a := 50.0, o.demo.Speed; e != a {
		t.Errorf("Speed = %g, want %g", a, e)
	}
	if e, a := int64(7), o.demo.Seed; e != a {
		t.Errorf("Seed = %d, want %d", a, e)
	}
}
