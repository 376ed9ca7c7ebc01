package inspector

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// watchIdle is how long a watch may say nothing (the server sends a
// bookmark every tick, a second) before the client takes it for broken
// and resumes it.
const watchIdle = 10 * time.Second

// watchRetry is the wait before a broken watch is resumed.
const watchRetry = time.Second

// KeyWatch mirrors one endpoint's page of v1/keys through its watch
// (api.WatchEvent): the page, kept up to date by the changes, resumed from
// its position when the stream breaks, listed again when the server says
// the position is too old. What a reader sees is Page; Changed says when.
type KeyWatch struct {
	mu      sync.Mutex
	page    api.KeyList
	rv      string
	err     error // why the stream is down, nil while it is up
	changed chan struct{}
}

// WatchKeys opens a watch of q on the endpoint and returns once its first
// page is in, within open (a call's deadline); the watch then runs until
// life ends. An endpoint that does not offer watch (Capabilities.Watch)
// refuses it: poll Keys instead.
func (c *Client) WatchKeys(life, open context.Context, q KeyQuery) (*KeyWatch, error) {
	w := &KeyWatch{changed: make(chan struct{})}
	body, err := c.openWatch(life, q, "")
	if err != nil {
		return nil, err
	}
	unbind := context.AfterFunc(open, body.cancel)
	lines := newLineReader(body)
	err = w.next(lines)
	if !unbind() || err != nil {
		body.Close()
		return nil, cmp.Or(open.Err(), err)
	}
	go w.run(life, c, q, body, lines)
	return w, nil
}

// Page is the page as the watch has it now, its position, and why the
// stream is down (nil while it is up; the page is then the last one seen).
func (w *KeyWatch) Page() (*api.KeyList, string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.page
	p.Items = slices.Clone(p.Items)
	return &p, w.rv, w.err
}

// Changed is closed at the watch's next event (a change, a bookmark, the
// stream breaking): wait on it, then read Page and ask again.
func (w *KeyWatch) Changed() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}

// run reads events until ctx ends, resuming the stream when it breaks.
func (w *KeyWatch) run(ctx context.Context, c *Client, q KeyQuery, body interface{ Close() error }, lines *lineReader) {
	for {
		var err error
		for err == nil {
			err = w.next(lines)
		}
		body.Close()
		if ctx.Err() != nil {
			return
		}
		var gone *watchGone
		rv := w.position()
		if errors.As(err, &gone) {
			rv = "" // too old: the page again
		}
		w.down(err)
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(watchRetry):
			}
			b, oerr := c.openWatch(ctx, q, rv)
			if ae, ok := errors.AsType[*APIError](oerr); ok && ae.Code == http.StatusGone {
				rv = ""
				continue
			}
			if oerr != nil {
				w.down(oerr)
				continue
			}
			body, lines = b, newLineReader(b)
			break
		}
	}
}

// watchGone is the server's word that a position is too old.
type watchGone struct{ msg string }

func (e *watchGone) Error() string { return e.msg }

// next reads one event and applies it.
func (w *KeyWatch) next(lines *lineReader) error {
	line, err := lines.next()
	if err != nil {
		return err
	}
	var ev api.WatchEvent
	if err := json.Unmarshal(line, &ev); err != nil {
		return fmt.Errorf("watch: not a watch event: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev.Type {
	case api.WatchPage:
		if ev.Page == nil {
			return errors.New("watch: a PAGE without its page")
		}
		w.page = *ev.Page
	case api.WatchChange:
		w.page.Total, w.page.Matched = ev.Total, ev.Matched
		w.page.Items = applyChange(w.page.Items, &ev)
	case api.WatchBookmark:
	case api.WatchError:
		msg := "watch: the endpoint ended it"
		if ev.Error != nil {
			msg = ev.Error.Message
			if ev.Error.Code == http.StatusGone {
				return &watchGone{msg}
			}
		}
		return errors.New(msg)
	default:
		return fmt.Errorf("watch: unknown event %q", ev.Type)
	}
	w.page.ServerTime = ev.ServerTime
	w.rv, w.err = ev.ResourceVersion, nil
	close(w.changed)
	w.changed = make(chan struct{})
	return nil
}

// applyChange is rows with a CHANGE applied: changed rows replaced or
// added, deleted ones removed, then the order the change gives, if any.
func applyChange(rows []api.Key, ev *api.WatchEvent) []api.Key {
	ref := func(k *api.Key) api.KeyRef { return api.KeyRef{Controller: k.Controller, Key: k.Key} }
	at := make(map[api.KeyRef]int, len(rows))
	for i := range rows {
		at[ref(&rows[i])] = i
	}
	for _, k := range ev.Changed {
		if i, ok := at[ref(&k)]; ok {
			rows[i] = k
		} else {
			at[ref(&k)] = len(rows)
			rows = append(rows, k)
		}
	}
	gone := make(map[api.KeyRef]bool, len(ev.Deleted))
	for _, d := range ev.Deleted {
		gone[d] = true
	}
	if ev.Order == nil {
		return slices.DeleteFunc(rows, func(k api.Key) bool { return gone[ref(&k)] })
	}
	out := make([]api.Key, 0, len(ev.Order))
	for _, r := range ev.Order {
		if i, ok := at[r]; ok && !gone[r] {
			out = append(out, rows[i])
		}
	}
	return out
}

func (w *KeyWatch) position() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rv
}

// down records why the stream broke, and says so to whoever waits.
func (w *KeyWatch) down(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.err = err
	close(w.changed)
	w.changed = make(chan struct{})
}

// openWatch starts the stream at position rv ("" for the page). It has no
// overall timeout, unlike a list: it lasts; watchIdle bounds its silences.
func (c *Client) openWatch(ctx context.Context, q KeyQuery, rv string) (*idleBody, error) {
	v := q.Values()
	v.Set("watch", "true")
	if rv != "" {
		v.Set("resourceVersion", rv)
	}
	u := c.base.JoinPath("v1/keys")
	u.RawQuery = v.Encode()
	ctx, cancel := context.WithCancel(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Accept", "application/x-ndjson")
	// The silence bound holds from the start: an endpoint that never
	// answers (a stopped process, a dead tunnel) ends the attempt too.
	timer := time.AfterFunc(watchIdle, cancel)
	resp, err := (&http.Client{Transport: c.http.Transport}).Do(req)
	if err != nil {
		timer.Stop()
		cancel()
		return nil, fmt.Errorf("GET %s: %w", u.Redacted(), err)
	}
	if resp.StatusCode != http.StatusOK {
		timer.Stop()
		defer cancel()
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return nil, newAPIError(http.MethodGet, u, resp.StatusCode, data)
	}
	return &idleBody{resp: resp, cancel: cancel, timer: timer}, nil
}

// lineReader reads a watch's JSON lines, each bounded as a list answer is.
type lineReader struct{ s *bufio.Scanner }

func newLineReader(b *idleBody) *lineReader {
	s := bufio.NewScanner(b)
	s.Buffer(make([]byte, 0, 64<<10), maxResponseBytes)
	return &lineReader{s}
}

func (l *lineReader) next() ([]byte, error) {
	if l.s.Scan() {
		return l.s.Bytes(), nil
	}
	if err := l.s.Err(); err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	return nil, errors.New("watch: the endpoint closed the stream")
}

// idleBody is a watch's response body that gives up (cancels its request)
// when nothing has arrived for watchIdle: a stopped endpoint or a dead
// tunnel then ends the read instead of hanging it.
type idleBody struct {
	resp   *http.Response
	cancel context.CancelFunc
	timer  *time.Timer
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.resp.Body.Read(p)
	if n > 0 {
		b.timer.Reset(watchIdle)
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	b.cancel()
	return b.resp.Body.Close()
}
