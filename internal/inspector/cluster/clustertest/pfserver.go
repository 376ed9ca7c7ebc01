package clustertest

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	gwebsocket "github.com/gorilla/websocket"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/portforward"
	criportforward "k8s.io/cri-streaming/pkg/streaming/portforward"
)

// PortForwardServer plays the API server and the kubelet for pods/portforward: the
// kubelet's real port-forward server (k8s.io/cri-streaming), behind an
// httptest server that routes /api/v1/namespaces/{ns}/pods/{name}/portforward
// to it, over SPDY (POST) and, when Websocket is on, over the websocket
// tunnel kubectl tries first (GET, subprotocol SPDY/3.1+portforward.k8s.io).
// Every pod's port podPort is the live HTTP server at backend. The exported
// fields are changed only through Set, under the server's lock.
type PortForwardServer struct {
	srv     *httptest.Server
	backend string
	podPort int32

	mu sync.Mutex
	// Backends, by pod name: a pod whose port serves another endpoint than backend.
	Backends map[string]string
	// Websocket accepts the websocket tunnel; else it is refused with 400.
	Websocket bool
	// Forbidden answers 403, as RBAC does.
	Forbidden bool
	// Pods are the pods that exist, "ns/name".
	Pods     map[string]bool
	requests []Request
	conns    map[net.Conn]bool // every connection, hijacked ones included
}

// Request is one port-forward request the server saw.
type Request struct {
	Pod       string // "ns/name"
	Websocket bool
}

// NewPortForwardServer starts a server whose pods (each "ns/name") exist
// and forward podPort to backend; it stops when the test ends.
func NewPortForwardServer(t *testing.T, backend string, podPort int32, pods ...string) *PortForwardServer {
	t.Helper()
	s := &PortForwardServer{backend: backend, podPort: podPort, Pods: map[string]bool{}, conns: map[net.Conn]bool{}}
	for _, p := range pods {
		s.Pods[p] = true
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1/namespaces/{ns}/pods/{name}/portforward", s.serve)
	s.srv = httptest.NewUnstartedServer(mux)
	// httptest forgets hijacked connections; keep them so Drop can cut them.
	s.srv.Config.ConnState = func(c net.Conn, st http.ConnState) {
		s.mu.Lock()
		defer s.mu.Unlock()
		switch st {
		case http.StateNew:
			s.conns[c] = true
		case http.StateClosed:
			delete(s.conns, c)
		}
	}
	s.srv.Start()
	t.Cleanup(func() {
		s.Drop()
		s.srv.Close()
	})
	return s
}

// Config is what a kubeconfig pointing at this server would give.
func (s *PortForwardServer) Config() *rest.Config { return &rest.Config{Host: s.srv.URL} }

// Set changes the server's behaviour under its lock.
func (s *PortForwardServer) Set(change func(s *PortForwardServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	change(s)
}

// Seen returns the requests served so far.
func (s *PortForwardServer) Seen() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Drop cuts every connection, as a restarting API server or a network
// failure would: every forward through this server is lost.
func (s *PortForwardServer) Drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.Close() //nolint:errcheck // cutting on purpose
		delete(s.conns, c)
	}
}

func (s *PortForwardServer) serve(w http.ResponseWriter, r *http.Request) {
	ns, name := r.PathValue("ns"), r.PathValue("name")
	ws := gwebsocket.IsWebSocketUpgrade(r)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Pod: ns + "/" + name, Websocket: ws})
	websocket, forbidden, exists := s.Websocket, s.Forbidden, s.Pods[ns+"/"+name]
	s.mu.Unlock()

	switch {
	case forbidden:
		writePFStatus(w, http.StatusForbidden, metav1.StatusReasonForbidden, fmt.Sprintf(
			`pods %q is forbidden: User "alice" cannot create resource "pods/portforward" in API group "" in the namespace %q`, name, ns))
	case !exists:
		writePFStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, fmt.Sprintf("pods %q not found", name))
	case ws && !websocket:
		// An API server from before the tunnel passes the websocket on to the
		// kubelet, which wants the v4 channel protocol's ?port= and refuses.
		http.Error(w, `query parameter "port" is required`, http.StatusBadRequest)
	case ws:
		s.serveTunnel(w, r, name)
	case r.Method == http.MethodPost:
		criportforward.ServePortForward(w, r, s, name, "", nil, time.Minute, 10*time.Second, criportforward.SupportedProtocols)
	default:
		http.Error(w, "port-forward needs POST", http.StatusMethodNotAllowed)
	}
}

// serveTunnel does what the API server's TunnelingHandler does: accept the
// websocket, then speak SPDY inside it, here straight to the kubelet's
// server, with the SPDY upgrade's own 101 response swallowed because the
// websocket handshake already answered.
func (s *PortForwardServer) serveTunnel(w http.ResponseWriter, r *http.Request, pod string) {
	up := gwebsocket.Upgrader{Subprotocols: []string{criportforward.WebsocketsSPDYTunnelingPortForwardV1}}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	defer conn.Close() //nolint:errcheck
	if conn.Subprotocol() != criportforward.WebsocketsSPDYTunnelingPortForwardV1 {
		return
	}
	tunnel := portforward.NewTunnelingConnection("server", conn)
	req := r.Clone(r.Context())
	req.Method = http.MethodPost
	req.Header = http.Header{}
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "SPDY/3.1")
	req.Header.Set("X-Stream-Protocol-Version", criportforward.ProtocolV1Name)
	criportforward.ServePortForward(&tunnelWriter{conn: tunnel, header: http.Header{}}, req, s, pod, "",
		nil, time.Minute, 10*time.Second, criportforward.SupportedProtocols)
}

// PortForward is the kubelet's half: connect the stream to the pod's port.
func (s *PortForwardServer) PortForward(_ context.Context, pod, _ string, port int32, stream io.ReadWriteCloser) error {
	defer stream.Close() //nolint:errcheck
	if port != s.podPort {
		return fmt.Errorf("pod %s: connect to port %d: connection refused", pod, port)
	}
	s.mu.Lock()
	backend := cmp.Or(s.Backends[pod], s.backend)
	s.mu.Unlock()
	conn, err := net.Dial("tcp", backend)
	if err != nil {
		return err
	}
	defer conn.Close() //nolint:errcheck
	done := make(chan struct{})
	go func() {
		io.Copy(conn, stream)            //nolint:errcheck // ends when the client is done
		conn.(*net.TCPConn).CloseWrite() //nolint:errcheck
		close(done)
	}()
	io.Copy(stream, conn) //nolint:errcheck // ends when the backend closes
	<-done
	return nil
}

// tunnelWriter is the ResponseWriter the SPDY upgrader sees inside the
// websocket tunnel: headers and status go nowhere, and hijacking hands over
// the tunnel.
type tunnelWriter struct {
	conn   net.Conn
	header http.Header
}

func (w *tunnelWriter) Header() http.Header         { return w.header }
func (w *tunnelWriter) WriteHeader(int)             {}
func (w *tunnelWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *tunnelWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return w.conn, bufio.NewReadWriter(bufio.NewReader(w.conn), bufio.NewWriter(w.conn)), nil
}

// writePFStatus answers as the API server does, with a metav1.Status.
func writePFStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(metav1.Status{ //nolint:errcheck
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Message: msg, Reason: reason, Code: int32(code),
	})
}
