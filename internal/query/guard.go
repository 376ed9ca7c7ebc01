package query

import (
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxURLBytes bounds a request's URL (path and query). The handler answers a
// longer one with 414 in the documented shape; Server's http.Server reads
// headers up to maxHeaderBytes so that such a URL reaches the handler
// instead of net/http's plain-text 431.
const (
	maxURLBytes = 8 << 10
	// MaxHeaderBytes is what a server in front of the handler should read
	// of a request's headers (http.Server.MaxHeaderBytes).
	MaxHeaderBytes = 1 << 20
)

// A web page can reach a port-forwarded loopback port: it can send a
// form-typed POST cross-site without asking, and a hostname it controls can
// be rebound to 127.0.0.1 so that the browser lets it read the answers. The
// guard refuses both: a Host that is not loopback, localhost, the address
// the request came in on or one the author allowed (DNS rebinding), and an
// Origin that is not the endpoint's own (a cross-site request).

// checkRequest applies the guard and the URL bound to every request.
func (h *Handler) checkRequest(r *http.Request) error {
	if n := len(r.URL.RawPath) + len(r.URL.Path) + len(r.URL.RawQuery); n > maxURLBytes {
		return Errorf(http.StatusRequestURITooLong, "the URL is %d bytes, over %d: shorten the filter (q, error)", n, maxURLBytes)
	}
	if !h.hostAllowed(r) {
		return Forbidden("Host %q is not this endpoint's: use 127.0.0.1 or localhost (kubectl port-forward), "+
			"or allow the name with instrument.HandlerOptions.AllowedHosts", r.Host)
	}
	// Every Origin header, not the first: a second one, foreign, was let
	// through behind a first that was the endpoint's own.
	for _, o := range r.Header.Values("Origin") {
		if o != "" && !sameOrigin(o, r.Host) {
			return Forbidden("requests from web pages (Origin %q) are refused: the endpoint is for kubectl backoff and curl", o)
		}
	}
	return nil
}

// hostAllowed reports whether r's Host names this endpoint.
func (h *Handler) hostAllowed(r *http.Request) bool {
	host := hostOnly(r.Host)
	if host == "" || strings.EqualFold(host, "localhost") {
		return true // HTTP/1.0 without Host; localhost resolves to loopback
	}
	if ip := net.ParseIP(host); ip != nil {
		if ip.IsLoopback() {
			return true
		}
		// The address the connection came in on: the pod IP for the metrics
		// server, the listener's own address for Server.
		if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			if lip := addrIP(la); lip != nil && lip.Equal(ip) {
				return true
			}
		}
	}
	for _, a := range h.opts.AllowedHosts {
		if a == "*" || strings.EqualFold(hostOnly(a), host) {
			return true
		}
	}
	return false
}

// sameOrigin reports whether origin names the host the request was sent to.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, host)
}

// hostOnly strips the port from a Host value, and brackets from IPv6.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

func addrIP(a net.Addr) net.IP {
	switch a := a.(type) {
	case *net.TCPAddr:
		return a.IP
	}
	if h, _, err := net.SplitHostPort(a.String()); err == nil {
		return net.ParseIP(h)
	}
	return nil
}

// CheckJSONBody accepts exactly application/json, with parameters (charset):
// a browser sends text/plain or a form cross-site without a preflight, never
// application/json.
func CheckJSONBody(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || mt != "application/json" {
		return Errorf(http.StatusUnsupportedMediaType, "Content-Type %q: send the body as application/json (curl -H 'Content-Type: application/json')", ct)
	}
	return nil
}
