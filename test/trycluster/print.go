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
	for _, t := range localcluster.Tries(demo.DefaultNamespace) {
		args := make([]string, len(t.Args))
		for i, a := range t.Args {
			args[i] = shellQuote(a)
		}
		fmt.Fprintf(out, "  %s %s %s\n      # %s\n", kc, plugin, strings.Join(args, " "), t.What)
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
