package cli

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestAddrTwice: two --addr flags are refused by name, not the last kept in
// silence (which showed one endpoint's keys as if they were all).
func TestAddrTwice(t *testing.T) {
	for _, c := range []struct {
		args    []string
		want    string
		wantErr string
	}{
		{[]string{"--addr", "127.0.0.1:8082"}, "127.0.0.1:8082", ""},
		{[]string{"--addr", "127.0.0.1:8082", "--addr", "127.0.0.1:8082"}, "127.0.0.1:8082", ""},
		{[]string{"--addr", "127.0.0.1:8082", "--addr", "127.0.0.1:8083"}, "", `"--addr" flag: given twice (127.0.0.1:8082 and 127.0.0.1:8083)`},
	} {
		o := newAttachOptions(nil)
		fs := pflag.NewFlagSet("get", pflag.ContinueOnError)
		o.addFlags(fs)
		err := fs.Parse(c.args)
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%v: error %v, want one saying %q", c.args, err, c.wantErr)
		case c.wantErr == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.wantErr == "" && o.addr != c.want:
			t.Errorf("%v: addr %q, want %q", c.args, o.addr, c.want)
		}
	}
}
