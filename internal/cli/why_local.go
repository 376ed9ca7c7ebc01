package cli

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/resource"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// Without a cluster, `why -f FILE` still has an answer when the user names
// where the backoff is (--addr, an endpoint; --from-logs, a log): the
// object is the file's, as saved (kubectl get -o yaml > FILE), judged by
// its own generation and status; its controller is the endpoint's or the
// log's, found without a pod to search. Nothing else needs the API server.

// fileOnly reports whether the answer needs no cluster: objects from -f
// only, and a source of backoff named.
func (o *WhyOptions) fileOnly() bool {
	return len(o.Filenames) > 0 && len(o.args) == 0 && o.Selector == "" && (len(o.Addrs) > 0 || o.logFile())
}

// noClusterRemedy is what to pass when no cluster is configured and the
// answer needs one: with -f, the flag that makes it need none.
func (o *WhyOptions) noClusterRemedy() string {
	if len(o.Filenames) > 0 && len(o.Addrs) == 0 && !o.logFile() {
		return whyRemedy + "; or add --addr ADDR (the controller's endpoint) or --from-logs LOG (its log): -f FILE's object is then answered from the file, without a cluster"
	}
	if len(o.Filenames) == 0 && len(o.args) > 0 && (len(o.Addrs) > 0 || o.logFile()) {
		// The source is named; only the object needs the cluster.
		return whyRemedy + "; or give the object saved as a file instead of TYPE/NAME (kubectl get TYPE/NAME -o yaml > obj.yaml; why -f obj.yaml): it is then answered without a cluster"
	}
	return whyRemedy
}

// localObjects reads -f's objects from the files alone, as kubectl's
// --local does: no mapping to a resource is asked of a server, so the
// plural is guessed from the kind (as kubectl guesses it for a CRD's).
func (o *WhyOptions) localObjects() ([]object, error) {
	infos, err := resource.NewBuilder(o.configFlags).
		Unstructured().
		Local().
		ContinueOnError().
		FilenameParam(false, &resource.FilenameOptions{Filenames: o.Filenames}).
		Flatten().
		Do().
		Infos()
	if err != nil {
		return nil, err
	}
	out := make([]object, 0, len(infos))
	for _, info := range infos {
		u, ok := info.Object.(*unstructured.Unstructured)
		if !ok {
			continue
		}
		plural, _ := meta.UnsafeGuessKindToResource(u.GroupVersionKind())
		out = append(out, object{u: u, resource: plural.Resource})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no objects found in %s", strings.Join(o.Filenames, " "))
	}
	return out, nil
}

// localAsker asks without a cluster: the backoff from --addr or
// --from-logs (addSources), no pods searched, no chain walked, no Events.
func (o *WhyOptions) localAsker() (*why.Asker, func(), error) {
	return &why.Asker{}, func() {}, nil
}

// fromFileNote is the first line of the evidence of an answer whose object
// was read from a file, not the API server: its status is as saved.
func fromFileNote(files []string) string {
	return "read from " + strings.Join(files, ", ") + ", not the API server (no cluster configured): its generation and status are as the file has them; its Events and chain are not read"
}
