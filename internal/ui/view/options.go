package view

import (
	"context"
	"io"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// AttachFunc opens a session on one pod. ctx bounds the attach only: the
// session lives until it is closed.
type AttachFunc func(ctx context.Context, pod cluster.Pod) (*inspector.Session, *describe.ObjectReader, error)

// Options configures the UI. Session, or Pods with Attach, is required.
// The UI never changes them: what it attaches to later is its own state.
type Options struct {
	// Session is the attached endpoint(s). The UI does not close it.
	Session *inspector.Session
	// Input is where keys are read from; nil is stdin (or, when stdin is
	// not a terminal, the terminal Bubble Tea opens). A log piped into top
	// takes stdin: keys then come from the terminal (/dev/tty), as less does.
	Input io.Reader
	// Pods, when Session is nil, are the instrumented pods discovery found
	// with no TARGET to say which: the UI opens on a picker of them and
	// attaches to the one picked with Attach. It closes that session itself
	// when it exits, since the caller never sees it.
	Pods   []cluster.Pod
	Attach AttachFunc
	// Objects reads the object behind a key for the detail view; may be nil
	// (with --addr there is no cluster to read from).
	Objects *describe.ObjectReader
	// Chain walks the chain of the object behind a key, for the detail
	// view's blocker line (why.Asker.ChainOf); nil shows none. Called from
	// a tea.Cmd, at most once per detailChainEvery.
	Chain func(ctx context.Context, o objwhy.Object) (*objwhy.Chain, error)
	// NoObjects says why Objects is nil, for the detail view, e.g.
	// "attached with --addr". Defaults to "no cluster access in this session".
	NoObjects string
	// Narrow is how the command narrows a cluster-wide attach, said after
	// the session's CapNote ("-l SELECTOR, or -n NAMESPACE instead of
	// -A"): the command's flags, which the inspector does not name.
	// Defaults to none.
	Narrow string
	// LogAt is where a suggested kick finds the log the keys were read
	// from again: the TARGET whose logs were read (Target) or the file
	// (LogFile: kick --from-logs FILE KEY). Zero leaves the word TARGET
	// (stdin cannot be read twice).
	LogAt explain.Session
	// Refresh is how often the view is refreshed. Defaults to 1s if unset.
	Refresh time.Duration
	// GiveUp is how long the UI keeps trying an endpoint it never reached
	// before it exits with the error. Defaults to 30s if unset.
	GiveUp time.Duration
	// Context and Namespace are shown in the header.
	Context, Namespace string
	// Controller, States and Filter are the initial selection, as --controller,
	// --state and -q give them.
	Controller string
	States     []api.State
	Filter     string
	// User is who a forget says is asking: the kubeconfig's user, else
	// $USER. The endpoint records it marked unverified unless it
	// authenticated the request itself. Defaults to none.
	User string
	// Clock is the local clock, for countdowns between refreshes. Defaults to
	// time.Now if unset; tests fix it.
	Clock func() time.Time
	// Watch reads the page through a watch where the endpoint offers one
	// (inspector.Session.Watch): the page top asks for every second then
	// costs the controller one computation a tick for all who watch it.
	Watch bool
	// Explain says an error as the CLI says it (a refused connection, with
	// what to try) where the UI shows one; nil shows it as it is.
	Explain func(error) error
	// For, when set, opens the UI on `top --for TYPE`: the objects of a kind
	// that are not Current, live. Session and Pods are then not needed.
	For *ForOptions
	// Fleet, when set, opens the UI on the fleet view (`kubectl backoff
	// fleet`): every controller of every cluster, from Prometheus.
	Fleet *FleetOptions
}
