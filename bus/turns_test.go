package bus

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// A connection's turns go in the order taken, whoever waits first; other connections' do not
// wait for them; a connection with none left is forgotten.
func TestTurnsKeepEachConnectionsOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) { // virtual time: a turn that went early is seen at once
		ts := newTurns()
		first, second, third := ts.take(7), ts.take(7), ts.take(7)
		other := ts.take(9)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := other.Wait(ctx); err != nil {
			t.Fatalf("another connection's turn waited: %v", err)
		}
		went := make(chan int, 3)
		for i, tn := range []*turn{third, second} {
			go func() {
				if err := tn.Wait(ctx); err == nil {
					went <- 3 - i
					tn.Done()
				}
			}()
		}
		synctest.Wait() // both wait for their turn, or went
		select {
		case n := <-went:
			t.Fatalf("turn %d went before the first was done", n)
		default:
		}
		if err := first.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		first.Done()
		first.Done() // twice: nothing more
		if a, b := <-went, <-went; a != 2 || b != 3 {
			t.Fatalf("turns went %d then %d, want 2 then 3", a, b)
		}
		other.Done()
		if len(ts.conns) != 0 {
			t.Fatalf("%d connections still held", len(ts.conns))
		}
		short, cancelShort := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancelShort()
		late := ts.take(7)
		if err := ts.take(7).Wait(short); err == nil {
			t.Fatal("a turn went while an earlier one was pending")
		}
		late.Done()
	})
}
