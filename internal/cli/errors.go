package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// noClusterErr is what a newcomer without a kubeconfig gets, instead of a
// dial error to client-go's default of localhost:8080: why there is none,
// when $KUBECONFIG names only files that do not exist (client-go skips
// them without a word), then what to pass.
func noClusterErr(what string) error {
	return errors.New("no cluster configured: " + kubeconfigEnvMissing() + what)
}

// The remedies the two kinds of command give.
const (
	attachRemedy = "pass --kubeconfig/--context, or --addr to talk to an endpoint directly (e.g. --addr 127.0.0.1:8082 for `kubectl backoff demo`)"
	whyRemedy    = "why reads the object from the API server; pass --kubeconfig/--context or set KUBECONFIG"
	// logsRemedy is a TARGET's with --from-logs: not attachRemedy's --addr,
	// which --from-logs refuses.
	logsRemedy = "--from-logs with a TARGET streams its pods' logs from the API server: pass --kubeconfig/--context, or save the log and give its path: --from-logs FILE"
)

// openLogErr is the error of opening the log --from-logs names, with what
// the flag takes when the path names nothing: a newcomer who typed a
// TARGET's name, or a log's, where it is not.
func openLogErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("--from-logs: %w; give a saved log's path, - to read stdin, or a TARGET before --from-logs to stream its pods' logs (deploy/NAME --from-logs)", err)
	}
	return fmt.Errorf("--from-logs: %w", err)
}

// kubeconfigEnvMissing says, ending in "; ", that $KUBECONFIG names no
// file that exists, or is "" when it is unset or one of its files exists.
func kubeconfigEnvMissing() string {
	v := os.Getenv("KUBECONFIG")
	var named int
	for _, p := range filepath.SplitList(v) {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return ""
		}
		named++
	}
	if named == 0 {
		return ""
	}
	return fmt.Sprintf("KUBECONFIG=%s names no file that exists; ", v)
}

// paramFlags maps the field a 400 names (api.ErrorBody.Field: a query
// parameter or a forget body field) to the flag that sets it, so that the
// error speaks the user's language. Fields no flag sets (offset and
// continue while paging, the error pattern a drill-down adds, the body
// itself) are named for what they are: a bug of this client, not the user's.
var paramFlags = map[string]string{
	"controller": "--controller",
	"q":          "-q/--filter",
	"state":      "--state",
	"sort":       "--sort",
	"limit":      "--limit",
	"key":        "KEY",
	"keys":       "KEY",
	"handle":     "KEY",
	"handles":    "KEY",
	"filter":     "--all",
	"spread":     "--spread",
	"reason":     "--reason",
	"user":       "the user from your kubeconfig",
	"error":      "the error group's pattern",
	"offset":     "paging (offset)",
	"continue":   "paging (continue)",
	"body":       "the forget request",
}

// explainError rewrites an error for the person at the terminal: a refused
// connection, or https to a plain-http listener, in one line with the
// address and what to try, and an endpoint's complaint about a parameter
// under the flag's name. Every command's errors pass through it, top's
// last one too, so each is said in one wording.
func (o *attachOptions) explainError(err error) error {
	if err == nil {
		return nil
	}
	err = inFlags(err)
	var op *net.OpError
	if errors.Is(err, syscall.ECONNREFUSED) && errors.As(err, &op) && op.Addr != nil {
		hint := "is the controller serving its endpoint on that port? (--port)"
		if o.addr != "" {
			hint = "is an endpoint listening there? `kubectl backoff demo` serves one on 127.0.0.1:8082; without --addr, kubectl backoff port-forwards to the controller's pod"
		}
		if g, ok := errors.AsType[*inspector.GuessedPortError](err); ok {
			hint = guessedHint(g)
		}
		return fmt.Errorf("cannot connect to %s: connection refused; %s", op.Addr, hint)
	}
	if ue, ok := errors.AsType[*url.Error](err); ok && errors.Is(err, http.ErrSchemeMismatch) {
		host := urlHost(ue)
		hint := "drop --scheme https: the loopback listener is plain http"
		if o.addr != "" {
			hint = "use --addr " + strings.Replace(o.addr, "https://", "http://", 1)
		}
		return fmt.Errorf("cannot talk https to %s: it answers plain http; %s", host, hint)
	}
	if ue, ok := errors.AsType[*url.Error](err); ok && !errors.Is(err, context.Canceled) {
		// The client, the replica and net/http each name the URL: say the
		// address once, and the flag it came from.
		host := urlHost(ue)
		from := ""
		if o.addr != "" {
			from = " (--addr)"
		}
		if ue.Timeout() {
			// "context deadline exceeded (Client.Timeout exceeded while
			// awaiting headers)", in words.
			d, _ := o.requestTimeout()
			return fmt.Errorf("%s%s did not answer within %s: it took the connection and said nothing; is its process stopped or stuck? "+
				"On a slow link, wait longer: --request-timeout %s", host, from, text.FormatDuration(d), text.FormatDuration(3*d))
		}
		if g, ok := errors.AsType[*inspector.GuessedPortError](err); ok {
			return fmt.Errorf("cannot reach %s: %s; %s", host, netCause(ue.Err), guessedHint(g))
		}
		return fmt.Errorf("cannot reach %s%s: %s", host, from, netCause(ue.Err))
	}
	var ae *inspector.APIError
	if !errors.As(err, &ae) {
		return err
	}
	switch ae.Code {
	case http.StatusBadRequest:
		if ae.Field == "state" && ae.Value == string(api.StateUnknown) {
			// The endpoint lists its states without saying why unknown
			// is not one of them.
			return errUnknownState
		}
		if flag, ok := paramFlags[ae.Field]; ok {
			// The flag replaces the parameter's name.
			return fmt.Errorf("%s: %s", flag, ae.Problem)
		}
		// A field this client does not know (a newer server's): the
		// server's own words name it.
		return errors.New(ae.Message)
	case http.StatusTooManyRequests:
		// Still busy after the client's retries. The server names the
		// query's parameters, any client's; say the flags that set them.
		return fmt.Errorf("%w (this command narrows a read with %s, %s or %s)", err,
			paramFlags["controller"], paramFlags["state"], paramFlags["q"])
	case http.StatusNotFound:
		// "no controller \"nope\"; known: widget" says it all; the method
		// and path only matter for RBAC (403), which keeps them.
		return errors.New(ae.Message)
	}
	return err
}

// guessedHint is why a pod whose port was guessed may not answer, and what
// reads a controller without the instrument.
func guessedHint(g *inspector.GuessedPortError) string {
	return fmt.Sprintf("pod %s has no container port named %q, so port %d was tried: is the controller instrumented? "+
		"For a controller without the instrument, add --from-logs to read its logs", g.Pod, inspector.PortName, g.Pod.Port)
}

// urlHost is the host:port of a failed request's URL (the URL if unparsable).
func urlHost(ue *url.Error) string {
	if u, err := url.Parse(ue.URL); err == nil {
		return u.Host
	}
	return ue.URL
}

// netCause is what went wrong on the network, without the addresses the
// caller names: "read: connection reset by peer", "dial tcp: address
// 80822: invalid port".
func netCause(err error) string {
	op, ok := errors.AsType[*net.OpError](err)
	if !ok || op.Addr == nil {
		if ok {
			return op.Error() // no address in it
		}
		return err.Error()
	}
	if se, ok := errors.AsType[*os.SyscallError](op.Err); ok && se.Syscall == op.Op {
		return se.Error() // "read: connection reset by peer" names its call
	}
	return op.Op + ": " + op.Err.Error()
}

// noCluster reports whether nothing names a cluster: no kubeconfig with a
// cluster, no --server, and not inside a pod. client-go would then dial
// localhost:8080.
func (o *attachOptions) noCluster() bool { return noClusterIn(o.configFlags) }

// noClusterIn is noCluster for any command's kubeconfig flags.
func noClusterIn(cf *genericclioptions.ConfigFlags) bool {
	if cf == nil || (cf.APIServer != nil && *cf.APIServer != "") || os.Getenv("KUBERNETES_SERVICE_HOST") != "" {
		return false
	}
	raw, err := cf.ToRawKubeConfigLoader().RawConfig()
	return err == nil && len(raw.Clusters) == 0
}
