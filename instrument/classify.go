package instrument

import (
	"context"
	"errors"
	"net"
	"net/http"
	"syscall"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// classify decides, when an error is recorded, whether retrying can fix it:
// classTransient (the dependency is down, slow or busy; backoff is doing its
// job), classPermanent (retrying the same input fails the same way) or
// classUnknown. It reads the error's chain, not its text, where the chain
// says: an API status, a network timeout, a refused or reset connection, an
// HTTP status code a client error carries. Only then, for errors flattened
// into text, does it look for the few phrases that name a transient failure
// unambiguously. Terminal errors are classified by the caller.
func classify(err error) uint8 {
	if st, ok := errors.AsType[apiStatusError](err); ok {
		s := st.Status()
		return classifyStatus(s.Reason, int(s.Code))
	}
	if errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ETIMEDOUT) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EPIPE) {
		return classTransient
	}
	if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
		return classTransient
	}
	if sc, ok := errors.AsType[statusCoder](err); ok {
		return classifyStatus("", sc.StatusCode())
	}
	return classifyText(err.Error())
}

// apiStatusError is an error carrying a Kubernetes API status, as client-go's
// StatusError does.
type apiStatusError interface {
	error
	apierrors.APIStatus
}

// statusCoder is how HTTP client errors commonly carry their status code.
type statusCoder interface {
	error
	StatusCode() int
}

// classifyStatus classifies an API status by its reason, else by its code.
func classifyStatus(reason metav1.StatusReason, code int) uint8 {
	switch reason {
	case metav1.StatusReasonConflict, metav1.StatusReasonServerTimeout, metav1.StatusReasonTooManyRequests,
		metav1.StatusReasonServiceUnavailable, metav1.StatusReasonInternalError, metav1.StatusReasonTimeout:
		return classTransient
	case metav1.StatusReasonInvalid, metav1.StatusReasonBadRequest, metav1.StatusReasonForbidden,
		metav1.StatusReasonUnauthorized, metav1.StatusReasonNotFound, metav1.StatusReasonAlreadyExists,
		metav1.StatusReasonMethodNotAllowed, metav1.StatusReasonUnsupportedMediaType, metav1.StatusReasonGone:
		return classPermanent
	}
	switch {
	case code == http.StatusConflict, code == http.StatusRequestTimeout, code == http.StatusTooManyRequests,
		code >= 500 && code != http.StatusNotImplemented:
		return classTransient
	case code >= 400:
		return classPermanent
	}
	return classUnknown
}

// classifyText reads the class from the error's words, as log mode does
// (api.ClassifyText), for an error whose chain has no type that tells.
func classifyText(msg string) uint8 {
	switch api.ClassifyText(msg) {
	case api.ClassTransient:
		return classTransient
	case api.ClassPermanent:
		return classPermanent
	}
	return classUnknown
}
