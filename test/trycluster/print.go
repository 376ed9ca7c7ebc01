package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/test/localcluster"
)

// tries are the commands printed to try, after the plugin's name, each
// with what it shows.
var tries = []struct{ args, what string }{
	{"top deploy/%[1]s -n %[2]s", "the live view of the pod's controllers (port-forward to its backoff port); q quits"},
	{"get deploy/%[1]s -n %[2]s --state backoff --limit 5", "the same keys from a script"},
	{"why configmap/naive-00000 -n %[2]s", "start from the object: which controller, what it does with the key, what next"},
	{"describe deploy/%[1]s -n %[2]s --controller naive %[2]s/naive-00000", "one key in full"},
	{"kick deploy/%[1]s -n %[2]s --controller naive %[2]s/naive-00000", "annotate the object so the controller reconciles it now"},
	{"forget deploy/%[1]s -n %[2]s --controller naive %[2]s/naive-00000 --requeue", "reset its backoff and retry now"},
	{"top deploy/%[1]s -n %[2]s --from-logs", "the same controllers read from the pod's log, as for a controller without the instrument"},
}

// printTry prints the kubeconfig and the commands to try, with
// kubectl-backoff itself when kubectl is not on PATH.
func printTry(out io.Writer, kubeconfig, pluginDir, dir string) {
	plugin := "kubectl backoff"
	if _, err := exec.LookPath("kubectl"); err != nil {
		plugin = "kubectl-backoff" // a kubectl plugin runs alone just as well
	}
	fmt.Fprintf(out, "\nThe cluster is up: a Deployment %s → ReplicaSet → Pod %s in namespace %s, whose port \"backoff\" kwok forwards to the demo's controllers in this process.\n",
		localcluster.DeploymentName, localcluster.PodName, demo.DefaultNamespace)
	fmt.Fprintf(out, "In another terminal:\n\n")
	if pluginDir != "" {
		fmt.Fprintf(out, "  export PATH=%s:$PATH   # this tree's kubectl-backoff\n", shellQuote(pluginDir))
	}
	kc := "KUBECONFIG=" + shellQuote(kubeconfig)
	for _, t := range tries {
		fmt.Fprintf(out, "  %s %s %s\n      # %s\n", kc, plugin, fmt.Sprintf(t.args, localcluster.DeploymentName, demo.DefaultNamespace), t.what)
	}
	fmt.Fprintf(out, "\nLogs: %s (the pod's container log), %s, %s.\n",
		filepath.Join(dir, "controller.log"), filepath.Join(dir, "demo.log"), filepath.Join(dir, "kwok", "kwok.log"))
	fmt.Fprintf(out, "Ctrl-C here (or kill %d) stops it all.\n\n", os.Getpid())
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
