package localcluster

// Try is one plugin command to try on the workload (after `kubectl
// backoff`), and what it shows.
type Try struct {
	Args []string
	What string
	// Terminal says the command takes the terminal (top): a script runs it
	// in one, or not at all.
	Terminal bool
}

// Tries are the commands hack/try-cluster.sh prints, on the workload in
// namespace whose pod's process is the demo's controllers (their key
// NAMESPACE/naive-00000 always fails). The e2e tier runs each that needs no
// terminal against its own cluster, and top in one, so what is printed keeps
// working.
func Tries(namespace string) []Try {
	deploy := "deploy/" + DeploymentName
	key := namespace + "/naive-00000"
	return []Try{
		{Args: []string{"top", deploy, "-n", namespace}, What: "the live view of the pod's controllers (port-forward to its backoff port); q quits", Terminal: true},
		{Args: []string{"get", deploy, "-n", namespace, "--state", "backoff", "--limit", "5"}, What: "the same keys from a script"},
		{Args: []string{"why", "configmap/naive-00000", "-n", namespace}, What: "start from the object: which controller, what it does with the key, what next"},
		{Args: []string{"describe", deploy, "-n", namespace, "--controller", "naive", key}, What: "one key in full"},
		{Args: []string{"kick", deploy, "-n", namespace, "--controller", "naive", key}, What: "annotate the object so that its controller reconciles it now"},
		{Args: []string{"forget", deploy, "-n", namespace, "--controller", "naive", key, "--requeue"}, What: "reset its backoff and retry now"},
		{Args: []string{"top", deploy, "-n", namespace, "--from-logs"}, What: "the same controllers read from the pod's log, as for a controller without the instrument", Terminal: true},
	}
}
