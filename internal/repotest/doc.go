// Package repotest checks the repository's files that are not Go: the
// manifests under config/ (rbac/ has the kubectl-backoff-viewer and
// kubectl-backoff-operator ClusterRoles, samples/ a Deployment of the
// instrumented demo with the ServiceAccount and Role it runs with, grafana/
// the fleet dashboard) and the scripts under hack/ (release.sh, run with
// stand-ins for the slow tools), so that what they say and write is checked
// in seconds by go test ./...:
//
//	kubectl apply -f config/rbac/
//	KO_DOCKER_REPO=... ko apply -f config/samples/
//	hack/release.sh linux/amd64
//
// It has no Go API: the files it reads are the product. It lives under
// internal/ so that config/ and hack/ hold no Go package of their own, and
// the packages outside internal/ are only those meant to be imported.
package repotest
