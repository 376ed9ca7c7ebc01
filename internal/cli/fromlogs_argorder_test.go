package cli_test

import (
	"os"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// Real logs (batch3's README says where they were pasted): sealed-secrets'
// one key failing five times, and wrangler's seven cluster-scoped keys.
const (
	sealedSecretsLog = "../inspector/logs/testdata/batch3/71-sealed-secrets-stdlog-will-retry-5x.log"
	wranglerLog      = "../inspector/logs/testdata/batch3/75-rancher-wrangler-error-syncing-seven-keys.log"
)

// TestFromLogsFileAfterTheKey: flags go anywhere in kubectl, so `describe
// KEY --from-logs FILE` is written as often as `describe --from-logs FILE
// KEY`; the file is the argument that is one, not the key (which read
// "open KEY: no such file or directory").
func TestFromLogsFileAfterTheKey(t *testing.T) {
	cf := genericclioptions.NewConfigFlags(false)
	describe := func(t *testing.T, stdin string, args ...string) string {
		t.Helper()
		streams, in, out, errOut := genericiooptions.NewTestIOStreams()
		in.WriteString(stdin)
		cmd := cli.NewDescribeCommand(cf, streams)
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("describe %v: %v (stderr: %s)", args, err, errOut)
		}
		return out.String()
	}
	const key = "test/external-services-credentials"
	for name, args := range map[string][]string{
		"KEY --from-logs FILE": {key, "--from-logs", sealedSecretsLog},
		"--from-logs FILE KEY": {"--from-logs", sealedSecretsLog, key},
	} {
		t.Run("describe "+name, func(t *testing.T) {
			out := describe(t, "", args...)
			if want := "Key:         " + key; !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
			if want := "5 failures logged since"; !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		})
	}
	t.Run("describe KEY --from-logs -", func(t *testing.T) {
		log, err := os.ReadFile(sealedSecretsLog)
		if err != nil {
			t.Fatal(err)
		}
		if out := describe(t, string(log), key, "--from-logs", "-"); !strings.Contains(out, "Key:         "+key) {
			t.Errorf("output lacks the key:\n%s", out)
		}
	})
	t.Run("get KEY KEY --from-logs FILE", func(t *testing.T) {
		l := getJSON(t, cf, "", "machines.cluster.x-k8s.io", "clusters.cluster.x-k8s.io", "--from-logs", wranglerLog)
		var got []string
		for _, k := range l.Items {
			got = append(got, k.Key.Key)
		}
		if strings.Join(got, " ") != "clusters.cluster.x-k8s.io machines.cluster.x-k8s.io" &&
			strings.Join(got, " ") != "machines.cluster.x-k8s.io clusters.cluster.x-k8s.io" {
			t.Errorf("keys = %v, want the two named", got)
		}
	})
	t.Run("neither a file", func(t *testing.T) {
		streams, _, _, _ := genericiooptions.NewTestIOStreams()
		cmd := cli.NewDescribeCommand(cf, streams)
		cmd.SetArgs([]string{"default/w1", "--from-logs", "no-such.log"})
		err := cmd.Execute()
		if err == nil || !strings.Contains(err.Error(), "open default/w1: no such file") {
			t.Errorf("err = %v, want the first argument opened as the file (as before)", err)
		}
	})
}
