package io.hopscope.agent.runtime;

/** An asynchronous result (a wrapped Mono) that a request ends with; a wait on it joins the request. */
public interface RequestCarrier {

    RequestState hopscopeRequest();
}
