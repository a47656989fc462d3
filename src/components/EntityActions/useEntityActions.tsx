import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { type Gender, genderedKey } from '../../i18n/gender';
import { type Translate, translateEvery, useI18n } from '../../i18n/i18n';
import { type PaletteCommand, useRegisterCommands } from '../../kernel/palette-registry';
import { notify } from '../../kernel/toast';
import { useConfirmation } from '../ConfirmDialog/ConfirmDialog';

/** Values for a message's `{{placeholders}}`. */
export type MessageParams = Record<string, string | number>;

/**
 * One admin action on an entity (disable a user, close a case, confirm a settlement…). Every action
 * goes through the one confirmation flow; its text is given as locale keys, filled with the
 * entity's `params` (and the action's own, which win).
 */
export interface EntityAction<E, C, R> {
  /** Unique within the entity: palette command ids are `<entity>:<id>:<entity id>`. */
  id: string;
  /** The button's and the palette command's label. */
  labelKey: string;
  confirm: {
    titleKey: string;
    messageKey: string;
    /** The confirm button's label; the action's label when absent. */
    confirmKey?: string;
    /** A destructive action: red button (disable, close, delete). */
    danger?: boolean;
  };
  /** Extra message values for this action. */
  params?(entity: E): MessageParams;
  /** Whether the action applies to the entity now (its status, who is signed in…); always when absent. */
  visible?(entity: E, context: C): boolean;
  /** The request. Its answer goes to `write`, then to the success toast. */
  mutate(entity: E): Promise<R>;
  /** Writes the answer into the query cache (the entity's detail, its rows in cached lists). */
  write?(queryClient: QueryClient, result: R, entity: E): void;
  /** The success toast. */
  done: { key: string; params?(result: R, entity: E, t: Translate): MessageParams };
}

/** The actions of one kind of entity: a screen, its palette and its confirmations all read this. */
export interface EntityActions<E, C> {
  /** Names the palette source and prefixes its command ids: `user`, `case`, `settlement`. */
  entity: string;
  /** Heading of the palette group the commands are listed under. */
  paletteGroupKey: string;
  id(entity: E): string;
  /** Message values every action's texts may use (name, e-mail, reference…). */
  params(entity: E): MessageParams;
  /**
   * The gender of the person the texts name, when the entity is one: keys listed in `GENDERED_KEYS`
   * then take their feminine twin for a woman (pt-PT "foi desativada"). Absent: the keys as written.
   */
  gender?(entity: E): Gender;
  actions: readonly EntityAction<E, C, unknown>[];
}

/** Types an action's answer from its `mutate`, for its `write` and `done` (a plain identity function). */
export function entityAction<E, C, R>(action: EntityAction<E, C, R>): EntityAction<E, C, R> {
  return action;
}

/** An action that applies now, ready for a button: `run` opens its confirmation. */
export interface BoundEntityAction {
  id: string;
  label: string;
  /** Its name in every language, so the palette finds it whatever the console shows. */
  keywords: string[];
  danger: boolean;
  run(): void;
}

export interface EntityActionsView {
  /** In the definition's order; the same list is registered as palette commands. */
  actions: BoundEntityAction[];
  /** The confirmation dialog: render it once on the screen. */
  dialog: ReactNode;
}

/**
 * The one entity-action hook of the console (docs/decisions/0062): for `entity` (undefined while it
 * loads) it gives the screen's buttons, registers the same actions as palette commands while mounted,
 * and runs each through the confirmation dialog it returns. On success the action's `write` puts the
 * answer into the query cache, then a success toast says what happened; a failure stays in the dialog,
 * translated, with "Try again" (decision 0051).
 *
 * `definition` and `context` are compared by identity: define the former at module level, memoise the latter.
 */
export function useEntityActions<E, C>(
  definition: EntityActions<E, C>,
  entity: E | undefined,
  context: C,
): EntityActionsView {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const { ask, dialog } = useConfirmation();

  const actions = useMemo<BoundEntityAction[]>(() => {
    if (entity === undefined) return [];
    const common = definition.params(entity);
    const gender = definition.gender?.(entity) ?? null;
    const tg: Translate = (key, params) => t(genderedKey(key, gender), params);
    return definition.actions
      .filter((action) => action.visible?.(entity, context) ?? true)
      .map((action) => {
        const params = { ...common, ...action.params?.(entity) };
        const label = t(action.labelKey);
        const danger = action.confirm.danger ?? false;
        return {
          id: action.id,
          label,
          keywords: translateEvery(action.labelKey),
          danger,
          run: () =>
            ask({
              title: tg(action.confirm.titleKey, params),
              message: tg(action.confirm.messageKey, params),
              confirmLabel: action.confirm.confirmKey ? tg(action.confirm.confirmKey, params) : label,
              danger,
              action: () => action.mutate(entity),
              onDone: (result) => {
                action.write?.(queryClient, result, entity);
                notify(
                  'success',
                  tg(action.done.key, { ...params, ...action.done.params?.(result, entity, t) }),
                );
              },
            }),
        };
      });
  }, [definition, entity, context, t, ask, queryClient]);

  const commands = useMemo<PaletteCommand[]>(() => {
    if (entity === undefined) return [];
    const group = t(definition.paletteGroupKey);
    const id = definition.id(entity);
    return actions.map((action) => ({
      id: `${definition.entity}:${action.id}:${id}`,
      group,
      label: action.label,
      keywords: action.keywords,
      kind: 'action' as const,
      run: action.run,
    }));
  }, [definition, entity, actions, t]);
  useRegisterCommands(`${definition.entity}-actions`, commands);

  return { actions, dialog };
}
