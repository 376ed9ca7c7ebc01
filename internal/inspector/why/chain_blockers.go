package why

import "slices"

// markBlockers marks each node not Current whose nodes below are all
// Current (or none): the deepest that is not, on every branch.
func markBlockers(n *Node) bool {
	if n.Seen {
		return n.Status != Current
	}
	blocked := false
	for _, c := range n.Below {
		if markBlockers(c) {
			blocked = true
		}
	}
	if n.Status == Current {
		return blocked
	}
	if !blocked {
		n.Blocker = true
	}
	return true
}

// Blockers are the chain's blockers, in the order of the tree.
func (c *Chain) Blockers() []*Node {
	var out []*Node
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Blocker {
			out = append(out, n)
		}
		for _, b := range n.Below {
			walk(b)
		}
	}
	if c != nil && c.Root != nil {
		walk(c.Root)
	}
	return out
}

// Path is the nodes from the root to n, n included; nil if n is not in c.
func (c *Chain) Path(n *Node) []*Node {
	var find func(at *Node, path []*Node) []*Node
	find = func(at *Node, path []*Node) []*Node {
		path = append(path, at)
		if at == n {
			return path
		}
		for _, b := range at.Below {
			if p := find(b, slices.Clone(path)); p != nil {
				return p
			}
		}
		return nil
	}
	if c == nil || c.Root == nil {
		return nil
	}
	return find(c.Root, nil)
}
