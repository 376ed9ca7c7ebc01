package cli

import (
	"testing"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// TestStartedWith: the command line is rebuilt from what was parsed, with
// kubectl's flags, list flags once per element, an optional-value flag
// alone, quoting, and the dropped flag left out.
func TestStartedWith(t *testing.T) {
	var got string
	cmd := &cobra.Command{Use: "mcp", RunE: func(cmd *cobra.Command, args []string) error {
		got = startedWith(cmd, args, "allow-write")
		return nil
	}}
	genericclioptions.NewConfigFlags(true).AddFlags(cmd.PersistentFlags())
	cmd.Flags().Bool("allow-write", false, "")
	cmd.Flags().StringArray("dialect", nil, "")
	cmd.Flags().String("from-logs", "", "")
	cmd.Flags().Lookup("from-logs").NoOptDefVal = "(target)"
	cmd.SetArgs([]string{"deploy/ctrl", "-n", "ops", "--from-logs", "--dialect", "a b.yaml", "--dialect", "c.yaml", "--context", "kind-x"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := "kubectl backoff mcp deploy/ctrl --context kind-x --dialect 'a b.yaml' --dialect c.yaml --from-logs --namespace ops"
	if got != want {
		t.Errorf("startedWith\n got %s\nwant %s", got, want)
	}
}
