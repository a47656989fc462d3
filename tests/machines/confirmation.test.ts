import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { confirmationMachine } from '../../machines/confirmation';
import { confirmationModel } from './confirmation.model';
import { describeModel } from './model';

describeModel(confirmationModel);

describe('confirmation machine', () => {
  it('submits once however many times the admin confirms while it is in flight', () => {
    let submits = 0;
    const actor = createActor(
      confirmationMachine.provide({
        actors: { submit: fromPromise<unknown, void>(() => new Promise(() => submits++)) },
      }),
    ).start();
    actor.send({ type: 'confirm.open' });
    for (let i = 0; i < 5; i++) actor.send({ type: 'confirm.accept' });
    actor.send({ type: 'confirm.cancel' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(submits).toBe(1);
    actor.stop();
  });
});
