package inspector

import "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"

// The names AttachConfig and MultiplePodsError are written in: their types
// live in internal/inspector/cluster, which a program outside this module
// cannot import, so they are given names here (aliases: the same types).
type (
	// Target names what to attach to: a workload (pod/NAME, deploy/NAME,
	// sts/NAME, rs/NAME) or a label selector. The zero Target discovers.
	Target = cluster.Target
	// PortSpec is the endpoint's container port, by number or name ("": the
	// port named "backoff", else the default).
	PortSpec = cluster.PortSpec
	// Clientset is the part of a Kubernetes clientset discovery uses; a
	// *kubernetes.Clientset is one.
	Clientset = cluster.Clientset
	// TunnelOptions configures the port-forwards' reconnects.
	TunnelOptions = cluster.TunnelOptions
	// Pod is an instrumented pod discovery found.
	Pod = cluster.Pod
	// ConnState is where an Endpoint's port-forward stands (Endpoint.State).
	ConnState = cluster.ConnState
	// Phase is a ConnState's phase: connecting, connected, reconnecting,
	// failed or stopped.
	Phase = cluster.Phase
)

// The phases of a port-forward the UI tells apart (see Phase for the rest).
const (
	PhaseConnecting   = cluster.PhaseConnecting
	PhaseConnected    = cluster.PhaseConnected
	PhaseReconnecting = cluster.PhaseReconnecting
)

// PortName is the container port name discovery looks for.
const PortName = cluster.PortName

// ParseTarget reads a TARGET argument as kubectl writes it (deploy/NAME,
// statefulset/NAME, pod/NAME or NAME for a pod) or a -l selector; giving
// both is an error.
func ParseTarget(arg, selector string) (Target, error) {
	return cluster.ParseTarget(arg, selector)
}
