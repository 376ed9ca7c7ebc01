package cli

import (
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// attachArgs is how the user attached, as the arguments of a command a
// diagnosis suggests: "--addr 127.0.0.1:8082", "deployment/ctrl -n ns
// --context prod". A suggested command copied without them fails or
// attaches elsewhere. Empty for a saved log: nothing to attach to.
func (o *attachOptions) attachArgs() string {
	if o.addr != "" {
		return "--addr " + explain.ShellQuote(o.addr)
	}
	var a []string
	switch {
	case o.target.Selector != "":
		a = append(a, "-l", explain.ShellQuote(o.target.Selector))
	case o.target.Kind != "":
		a = append(a, explain.ShellQuote(o.target.Kind+"/"+o.target.Name))
	}
	if o.allNamespaces {
		a = append(a, "-A")
	}
	if cf := o.configFlags; cf != nil {
		for _, f := range []struct {
			flag string
			v    *string
		}{{"-n", cf.Namespace}, {"--context", cf.Context}, {"--kubeconfig", cf.KubeConfig}} {
			if f.v != nil && *f.v != "" {
				a = append(a, f.flag, explain.ShellQuote(*f.v))
			}
		}
	}
	if o.port != "" {
		a = append(a, "--port", explain.ShellQuote(o.port))
	}
	if o.scheme != "" && o.scheme != "http" {
		a = append(a, "--scheme", o.scheme)
	}
	if o.prefix != "" && o.prefix != api.DefaultPrefix {
		a = append(a, "--path", explain.ShellQuote(o.prefix))
	}
	return strings.Join(a, " ")
}
