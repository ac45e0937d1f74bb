package io.hopscope.testapps.servers;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * {@link ServerStudy} on Spring WebFlux over reactor-netty, without Spring Boot: an application
 * context with an {@code @RestController} whose {@code @GetMapping("/orders/{id}")} returns a
 * {@code Mono} of the study's blocking work on {@code boundedElastic}, served through
 * {@code WebHttpHandlerBuilder} and {@code ReactorHttpHandlerAdapter} by {@code HttpServer} on
 * {@link ServerStudy#SERVER_THREADS} event loops ({@code study-loop-*}). The failing handler's
 * error is WebFlux's to answer: 500.
 */
public final class WebFluxApp {

    static ServerStudy study;

    public static void main(String[] args) throws Exception {
        LoopResources loops = LoopResources.create("study-loop", 1, ServerStudy.SERVER_THREADS, true);
        try (ServerStudy s = new ServerStudy();
                AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Config.class)) {
            study = s;
            ReactorHttpHandlerAdapter adapter = new ReactorHttpHandlerAdapter(
                    WebHttpHandlerBuilder.applicationContext(context).build());
            DisposableServer server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops).handle(adapter)
                    .bindNow();
            study.run("http://127.0.0.1:" + server.port());
            server.disposeNow();
        }
        loops.dispose();
    }

    /** WebFlux's own configuration (its DispatcherHandler is the bean "webHandler") and the controller. */
    @Configuration(proxyBeanMethods = false)
    @EnableWebFlux
    public static class Config {
        @Bean
        public Orders orders() {
            return new Orders();
        }
    }

    @RestController
    public static class Orders {
        @GetMapping(ServerStudy.ORDERS + "{id}")
        public Mono<String> order(@PathVariable("id") String id) {
            return handled(ServerStudy.ORDERS + id);
        }

        @GetMapping(ServerStudy.FAIL)
        public Mono<String> fail() {
            return handled(ServerStudy.FAIL);
        }

        private static Mono<String> handled(String path) {
            return Mono.fromCallable(() -> study.handle(path)).subscribeOn(Schedulers.boundedElastic());
        }
    }
}
