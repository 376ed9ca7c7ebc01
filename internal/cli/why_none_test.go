package cli

import (
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestWhyListNoneFound: `why TYPE` that finds nothing says where it looked
// (the namespace, or all with -A), as kubectl get does (issue 41's
// newcomer, item 15: "no deployment found" named no namespace).
func TestWhyListNoneFound(t *testing.T) {
	for _, tc := range []struct {
		flags map[string]string
		want  string
	}{
		{map[string]string{"namespace": "team-quota"}, `No deployment found in namespace "team-quota" (-n NAMESPACE for another, -A for all).`},
		{map[string]string{"namespace": "team-quota", "selector": "app=web"}, `No deployment found matching -l app=web in namespace "team-quota" (-n NAMESPACE for another, -A for all).`},
		{map[string]string{"all-namespaces": "true"}, "No deployment found in any namespace."},
	} {
		cf := genericclioptions.NewConfigFlags(false)
		cmd, o := newWhyCommand(cf, genericiooptions.NewTestIOStreamsDiscard())
		cf.AddFlags(cmd.Flags())
		for k, v := range tc.flags {
			if err := cmd.Flags().Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		if err := o.Complete([]string{"deployment"}); err != nil {
			t.Fatal(err)
		}
		if got := o.noneFound(); got != tc.want {
			t.Errorf("%v:\n %s\nwant\n %s", tc.flags, got, tc.want)
		}
	}
}

// TestWhyListAllCurrent: the count and the noun agree ("all 1 deployment
// are Current" was printed); and over the list's cap, where some objects'
// Events or keys were not read, it does not say "nothing to wait for"
// beside the note that says so.
func TestWhyListAllCurrent(t *testing.T) {
	for _, tc := range []struct {
		total   int
		skipped bool
		want    string
	}{
		{1, false, "the one Deployment found is Current: nothing to wait for"},
		{3, false, "all 3 deployments are Current: nothing to wait for"},
		{200, true, "all 200 deployments are Current by their status, as far as read (see the note below)"},
	} {
		if got := allCurrent(tc.total, "deployment", "Deployment", "deployments", tc.skipped); got != tc.want {
			t.Errorf("%d: %q; want %q", tc.total, got, tc.want)
		}
	}
}
