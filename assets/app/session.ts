/** The event queue the app holds now (sent messages name it, so their events carry the local id back). */
let queueId = "";

export const currentQueueId = () => queueId;
export const setQueueId = (id: string) => (queueId = id);
