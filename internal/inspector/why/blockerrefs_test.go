package why

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// TestMessageRefs: apimachinery's error shapes in the failure messages of
// public issues (objstatus/testdata/README.md) name the object to change.
func TestMessageRefs(t *testing.T) {
	u := &unstructured.Unstructured{}
	u.SetNamespace("kube-system")
	for _, tc := range []struct{ msg, want string }{
		{`Error creating: pods "citrix-ipam-controller-865fb885-" is forbidden: error looking up service account kube-system/citrix-ipam-controller: serviceaccount "citrix-ipam-controller" not found`,
			"resource serviceaccount group  ns kube-system name citrix-ipam-controller"},
		{`storageclass.storage.k8s.io "fast" not found`, "resource storageclass group storage.k8s.io ns kube-system name fast"},
		{`the HPA controller was unable to get the target's current scale: deployments/scale.apps "sc4s-splunk-connect-for-syslog" not found`,
			"resource deployments group apps ns kube-system name sc4s-splunk-connect-for-syslog"},
		{`(combined from similar events): Error creating: pods "allocation-manager-6597bc46dc-2wm8j" is forbidden: exceeded quota: namespace-quota, requested: limits.cpu=1,limits.memory=2Gi, used: limits.cpu=6,limits.memory=12Gi, limited: limits.cpu=6,limits.memory=12Gi`,
			"kind ResourceQuota ns kube-system name namespace-quota"},
		// built: client-go's discovery error as the namespace controller words it
		{`unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1`,
			"kind APIService ns  name v1beta1.metrics.k8s.io"},
		{`Error creating: pods "nodejs-app-8665bd77fb-2dd4n" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false`, ""},
	} {
		refs := messageRefs(u, Verdict{Failures: []objstatus.Failure{{What: "x", Message: tc.msg}}})
		var got []string
		for _, r := range refs {
			if r.Resource != "" {
				got = append(got, "resource "+r.Resource+" group "+r.Group+" ns "+r.Namespace+" name "+r.Name)
			} else {
				got = append(got, "kind "+r.Kind+" ns "+r.Namespace+" name "+r.Name)
			}
		}
		if strings.Join(got, "; ") != tc.want {
			t.Errorf("%s\n refs %q; want %q", tc.msg, got, tc.want)
		}
	}
}
