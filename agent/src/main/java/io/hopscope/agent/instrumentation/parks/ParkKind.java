package io.hopscope.agent.instrumentation.parks;

/**
 * The Wait kind of a park outside any known wait, by its blocker: the JDK synchronizers' own
 * names, read from the class each parks on (its argument to LockSupport#park, or the blocker it set
 * itself before a park() without one). A park on anything else is a {@code LockSupport.park}.
 */
enum ParkKind {
    COUNT_DOWN_LATCH("java.util.concurrent.CountDownLatch$", "CountDownLatch.await"),
    SEMAPHORE("java.util.concurrent.Semaphore$", "Semaphore.acquire"),
    /** take and put both wait in the queue's transfer (JDK 17: TransferStack/Queue; 21+: Transferer). */
    SYNCHRONOUS_QUEUE("java.util.concurrent.SynchronousQueue$", "SynchronousQueue.transfer"),
    LINKED_TRANSFER_QUEUE("java.util.concurrent.LinkedTransferQueue", "LinkedTransferQueue.transfer"),
    /** A Condition's await: the blocking queues' take and put (LinkedBlockingQueue, ArrayBlockingQueue...). */
    CONDITION("java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject", "Condition.await"),
    LONG_CONDITION("java.util.concurrent.locks.AbstractQueuedLongSynchronizer$ConditionObject", "Condition.await"),
    REENTRANT_LOCK("java.util.concurrent.locks.ReentrantLock$", "Lock.lock"),
    READ_WRITE_LOCK("java.util.concurrent.locks.ReentrantReadWriteLock$", "Lock.lock");

    final String blockerClassPrefix;
    final String kind;

    ParkKind(String blockerClassPrefix, String kind) {
        this.blockerClassPrefix = blockerClassPrefix;
        this.kind = kind;
    }
}
