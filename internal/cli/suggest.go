package cli

import (
	"regexp"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// shellSafe matches words a POSIX shell takes as they are.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=,@%+-]+$`)

// shellQuote quotes s for a command line the user copies: as it is when
// the shell takes it so, else in single quotes.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// attachArgs is how the user attached, as the arguments of a command a
// diagnosis suggests: "--addr 127.0.0.1:8082", "deployment/ctrl -n ns
// --context prod". A suggested command copied without them fails or
// attaches elsewhere. Empty for a saved log: nothing to attach to.
func (o *attachOptions) attachArgs() string {
	if o.addr != "" {
		return "--addr " + shellQuote(o.addr)
	}
	var a []string
	switch {
	case o.target.Selector != "":
		a = append(a, "-l", shellQuote(o.target.Selector))
	case o.target.Kind != "":
		a = append(a, shellQuote(o.target.Kind+"/"+o.target.Name))
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
				a = append(a, f.flag, shellQuote(*f.v))
			}
		}
	}
	if o.port != "" {
		a = append(a, "--port", shellQuote(o.port))
	}
	if o.scheme != "" && o.scheme != "http" {
		a = append(a, "--scheme", o.scheme)
	}
	if o.prefix != "" && o.prefix != api.DefaultPrefix {
		a = append(a, "--path", shellQuote(o.prefix))
	}
	return strings.Join(a, " ")
}
