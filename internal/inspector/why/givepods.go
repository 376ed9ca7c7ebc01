package why

import "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"

// The flags by which the user names a controller's pods, when the search
// cannot decide or may not look: data, spelt by explain.Flag as every
// suggested command's flags are.
var (
	podsFlag      = explain.Flag{Name: "controller-pod"}
	namespaceFlag = explain.Flag{Name: "controller-namespace"}
	// addrFlag names an instrumented controller's endpoint outside the
	// cluster: a controller its author runs with go run has no pods to name.
	addrFlag = explain.Flag{Name: "addr"}
)

// givePods is how the user names the pods: the pods flag with a target of
// the shape given (deploy/NAME, pod/NAME), and the namespace flag.
func givePods(target string) string {
	return explain.Flag{Name: podsFlag.Name, Value: target}.String() + " " + explain.Flag{Name: namespaceFlag.Name, Value: "NS"}.String()
}
