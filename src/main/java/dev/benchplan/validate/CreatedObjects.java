package dev.benchplan.validate;

import java.util.ArrayList;
import java.util.List;

/**
 * The objects of one validate run, in creation order. An object is recorded before it is created,
 * so an interruption in between still cleans it up (deletion tolerates NotFound). Once cleanup has
 * begun the ledger is closed: a creation racing with it learns so from {@link #record} and must
 * undo itself.
 */
public final class CreatedObjects {
  private final List<CreatedObject> objects = new ArrayList<>();
  private boolean closed;

  /** Records an object about to be created; false when cleanup has already begun. */
  public synchronized boolean record(CreatedObject o) {
    if (!objects.contains(o)) {
      objects.add(o);
    }
    return !closed;
  }

  /** Whether cleanup has begun. */
  public synchronized boolean closed() {
    return closed;
  }

  /** Closes the ledger and returns its objects in reverse creation order (the deletion order). */
  public synchronized List<CreatedObject> closeForCleanup() {
    closed = true;
    List<CreatedObject> reverse = new ArrayList<>(objects);
    java.util.Collections.reverse(reverse);
    return reverse;
  }

  /** The objects in creation order. */
  public synchronized List<CreatedObject> snapshot() {
    return List.copyOf(objects);
  }
}
