package cli

import (
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
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
		{name: "bad state", flags: map[string]string{"state": "sleeping"}, wantErr: `--state "sleeping"`},
		{name: "addr and target", args: []string{"deploy/ctrl"}, flags: map[string]string{"addr": "127.0.0.1:8082"}, wantErr: "top takes at most a TARGET"},
		{name: "extra arg", args: []string{"deploy/ctrl", "default/w1"}, wantErr: "accepts at most 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := NewTopCommand(genericclioptions.NewConfigFlags(false), genericiooptions.NewTestIOStreamsDiscard())
			for k, v := range tt.flags {
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
	o := &TopOptions{attachOptions: newAttachOptions(genericclioptions.NewConfigFlags(false)), Refresh: d}
	o.addr = flags["addr"]
	if s, ok := flags["state"]; ok {
		o.States = strings.Split(s, ",")
	}
	return o
}
