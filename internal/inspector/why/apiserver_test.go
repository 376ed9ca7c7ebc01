package why

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// apiServer serves objects over HTTP on loopback as the API server's
// REST paths do — legacy discovery (/api, /apis, /api/v1, /apis/G/V),
// GET of one object, LIST paged by limit and continue, 404 as a Status —
// so the chain walk runs through the real discovery and dynamic clients
// and its requests can be counted. It serves what graphOf's fake serves:
// the files' kinds plus Pods and ReplicaSets.
type apiServer struct {
	srv      *httptest.Server
	objs     []*unstructured.Unstructured
	kinds    map[schema.GroupVersion][]kindInfo
	requests atomic.Int64
}

func newAPIServer(t testing.TB, objs []*unstructured.Unstructured) *apiServer {
	t.Helper()
	s := &apiServer{objs: objs, kinds: map[schema.GroupVersion][]kindInfo{}}
	add := func(gvk schema.GroupVersionKind) {
		gv := gvk.GroupVersion()
		if slices.ContainsFunc(s.kinds[gv], func(k kindInfo) bool { return k.GVK == gvk }) {
			return
		}
		s.kinds[gv] = append(s.kinds[gv], kindInfo{GVK: gvk, Resource: pluralGuess(gvk.Kind), Namespaced: !clusterScoped[gvk.Kind]})
	}
	add(schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
	add(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"})
	for _, u := range objs {
		add(u.GroupVersionKind())
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// graph is a Graph reading s through client-go's own clients.
func (s *apiServer) graph(t testing.TB) *Graph {
	cfg := &rest.Config{Host: s.srv.URL, QPS: -1} // no client-side throttle: the walk's own cost is measured
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &Graph{Dynamic: dyn, Discovery: disc}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *apiServer) serve(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	path := strings.Trim(r.URL.Path, "/")
	var gv schema.GroupVersion
	var rest []string
	switch parts := strings.Split(path, "/"); {
	case path == "api":
		writeJSON(w, 200, map[string]any{"kind": "APIVersions", "versions": []string{"v1"}})
		return
	case path == "apis":
		s.groups(w)
		return
	case parts[0] == "api" && len(parts) >= 2:
		gv, rest = schema.GroupVersion{Version: parts[1]}, parts[2:]
	case parts[0] == "apis" && len(parts) >= 3:
		gv, rest = schema.GroupVersion{Group: parts[1], Version: parts[2]}, parts[3:]
	default:
		writeJSON(w, 404, notFound())
		return
	}
	kinds, ok := s.kinds[gv]
	if !ok {
		writeJSON(w, 404, notFound())
		return
	}
	if len(rest) == 0 {
		var res []map[string]any
		for _, k := range kinds {
			res = append(res, map[string]any{"name": k.Resource, "kind": k.GVK.Kind, "namespaced": k.Namespaced, "verbs": []string{"get", "list"}})
		}
		writeJSON(w, 200, map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv.String(), "resources": res})
		return
	}
	ns := ""
	if rest[0] == "namespaces" && len(rest) >= 3 {
		ns, rest = rest[1], rest[2:]
	}
	i := slices.IndexFunc(kinds, func(k kindInfo) bool { return k.Resource == rest[0] })
	if i < 0 || len(rest) > 2 {
		writeJSON(w, 404, notFound())
		return
	}
	k := kinds[i]
	var match []*unstructured.Unstructured
	for _, u := range s.objs {
		if u.GroupVersionKind() == k.GVK && (ns == "" || u.GetNamespace() == ns) && (len(rest) == 1 || u.GetName() == rest[1]) {
			match = append(match, u)
		}
	}
	if len(rest) == 2 {
		if len(match) == 0 {
			writeJSON(w, 404, notFound())
			return
		}
		writeJSON(w, 200, match[0].Object)
		return
	}
	from, _ := strconv.Atoi(r.URL.Query().Get("continue"))
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	to, next := len(match), ""
	if limit > 0 && from+limit < len(match) {
		to, next = from+limit, strconv.Itoa(from+limit)
	}
	items := []any{}
	for _, u := range match[min(from, len(match)):to] {
		items = append(items, u.Object)
	}
	writeJSON(w, 200, map[string]any{"apiVersion": gv.String(), "kind": k.GVK.Kind + "List", "metadata": map[string]any{"continue": next}, "items": items})
}

func (s *apiServer) groups(w http.ResponseWriter) {
	byGroup := map[string][]string{}
	for gv := range s.kinds {
		if gv.Group != "" {
			byGroup[gv.Group] = append(byGroup[gv.Group], gv.Version)
		}
	}
	var groups []map[string]any
	for _, g := range slices.Sorted(maps.Keys(byGroup)) {
		var versions []map[string]any
		for _, v := range byGroup[g] {
			versions = append(versions, map[string]any{"groupVersion": g + "/" + v, "version": v})
		}
		groups = append(groups, map[string]any{"name": g, "versions": versions, "preferredVersion": versions[0]})
	}
	writeJSON(w, 200, map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

func notFound() map[string]any {
	return map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404, "message": "not found"}
}
